import type { ImportContext } from './legacy-shape.js';
import { documentedFreshness, keepOtherKeys, readLegacyColumns, semver } from './legacy-shape.js';
import { readOwnerValue } from './read-people.js';
import { setSla } from './read-sla-text.js';

const TOP = ['dataset', 'owner', 'version', 'freshness_hours', 'columns', 'description'];

/**
 * The DuckDB post's `contract.yaml`: `dataset`, `owner`, `version: 2`, `freshness_hours`, and
 * `columns` with `nullable` (true unless written false, as the post's script reads it, which is
 * also the native default), `unique`, `allowed`, `min` and the post's own type words (integer,
 * string, decimal, timestamp), read as DuckDB reads them.
 */
export function fromDuckdbPost(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  draft.name = nodes.text(nodes.child(root, 'dataset'));
  draft.version = semver(c, nodes.child(root, 'version'), 'version');
  readOwnerValue(c, nodes.child(root, 'owner'), 'owner');
  const description = nodes.text(nodes.child(root, 'description'))?.trim();
  if (description) draft.description = description;
  readLegacyColumns(c, nodes.child(root, 'columns'), 'columns', 'duckdb');
  // The post's check ends by reporting the table's columns the contract does not list, as problems.
  draft.schema.extra_columns = 'reject';
  c.log.note({ key: 'schema' }, "extra_columns reject: the DuckDB post's check reports every column of the table the contract does not list, and fails on it");
  const hoursNode = nodes.child(root, 'freshness_hours');
  const hours = nodes.number(hoursNode);
  if (hoursNode !== undefined && hours === undefined) c.log.error('freshness_hours', hoursNode, 'expected a number of hours');
  setSla(c, { max_lag_hours: hours });
  documentedFreshness(c, 'placed_at', 'the DuckDB post says "freshness_hours: 24 says the newest placed_at must be less than a day old"');
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}
