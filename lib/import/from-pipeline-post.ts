import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readCompat, readFormat, readLegacyColumns, readPartition, semver } from './legacy-shape.js';

const TOP = ['name', 'dataset', 'version', 'owner', 'description', 'produces', 'compat', 'columns', 'primary_key', 'freshness', 'row_count'];

/**
 * The pipeline-post shape (`contracts/orders_v1.yaml`): `version: 1`, `owner: <team>`, `produces:
 * { uri, format, partition }`, `compat: backward`, a top-level `columns` list. Detected by
 * `produces.uri` or by a top-level `columns` list beside a plain-text `owner`.
 */
export function fromPipelinePost(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  draft.name = nodes.text(nodes.child(root, 'name')) ?? nodes.text(nodes.child(root, 'dataset'));
  draft.version = semver(c, nodes.child(root, 'version'), 'version');
  const owner = nodes.child(root, 'owner');
  draft.owner.team = nodes.text(owner) ?? nodes.text(nodes.child(owner, 'team'));
  draft.owner.notify = nodes.strings(nodes.child(owner, 'notify') ?? nodes.child(owner, 'contact'));
  const description = nodes.text(nodes.child(root, 'description'));
  if (description) draft.description = description;
  const produces = nodes.child(root, 'produces');
  readFormat(c, nodes.child(produces, 'format'), 'produces.format');
  readPartition(c, nodes.child(produces, 'partition'), 'produces.partition');
  const uri = nodes.text(nodes.child(produces, 'uri'));
  if (uri) c.log.note({ key: 'produces' }, `the source writes to ${uri}; the gate reads drops under staging/<name>/v<major>/ and publishes them (see the README's layout)`);
  keepOtherKeys(c, produces, 'produces', ['format', 'partition', 'uri'], { key: 'produces' });
  readCompat(c, nodes.child(root, 'compat'), 'compat');
  readLegacyColumns(c, nodes.child(root, 'columns'), 'columns', 'generic');
  const key = nodes.strings(nodes.child(root, 'primary_key'));
  if (key) draft.schema.grain = key;
  readFreshness(c);
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

function readFreshness(c: ImportContext): void {
  const { nodes, draft } = c;
  const freshness = nodes.child(nodes.root, 'freshness');
  const rows = nodes.child(nodes.root, 'row_count');
  const hours = nodes.number(nodes.child(freshness, 'max_delay_hours')) ?? nodes.number(nodes.child(freshness, 'max_lag_hours'));
  const column = nodes.text(nodes.child(freshness, 'column'));
  const minRows = nodes.number(nodes.child(rows, 'min'));
  const maxRows = nodes.number(nodes.child(rows, 'max'));
  if (hours === undefined && minRows === undefined && maxRows === undefined) return;
  draft.sla = {
    ...(hours === undefined ? {} : { max_lag_hours: hours }),
    ...(column === undefined ? {} : { freshness_column: column }),
    ...(minRows === undefined ? {} : { min_rows: minRows }),
    ...(maxRows === undefined ? {} : { max_rows: maxRows }),
  };
  keepOtherKeys(c, freshness, 'freshness', ['max_delay_hours', 'max_lag_hours', 'column'], { key: 'sla' });
  keepOtherKeys(c, rows, 'row_count', ['min', 'max'], { key: 'sla' });
}
