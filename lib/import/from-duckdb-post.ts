import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readFormat, readLegacyColumns, readPartition, semver } from './legacy-shape.js';

const TOP = ['dataset', 'version', 'description', 'owner', 'format', 'partition', 'freshness_hours', 'min_rows', 'columns'];

/**
 * The DuckDB-post shape: `dataset`, `freshness_hours`, `columns` with `nullable`, `unique`,
 * `allowed` and DuckDB's type names (INTEGER, DECIMAL, TIMESTAMP without a zone). Detected by
 * a top-level `dataset` beside a `columns` list.
 */
export function fromDuckdbPost(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  draft.name = nodes.text(nodes.child(root, 'dataset'));
  draft.version = semver(c, nodes.child(root, 'version'), 'version');
  const owner = nodes.text(nodes.child(root, 'owner'));
  if (owner?.includes('@')) draft.owner = { team: owner.split('@')[0] ?? owner, notify: [owner] };
  else if (owner) draft.owner.team = owner;
  const description = nodes.text(nodes.child(root, 'description'));
  if (description) draft.description = description;
  readFormat(c, nodes.child(root, 'format'), 'format');
  readPartition(c, nodes.child(root, 'partition'), 'partition');
  readLegacyColumns(c, nodes.child(root, 'columns'), 'columns', 'duckdb');
  const hours = nodes.number(nodes.child(root, 'freshness_hours'));
  const minRows = nodes.number(nodes.child(root, 'min_rows'));
  if (hours !== undefined || minRows !== undefined) {
    draft.sla = { ...(hours === undefined ? {} : { max_lag_hours: hours }), ...(minRows === undefined ? {} : { min_rows: minRows }) };
  }
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}
