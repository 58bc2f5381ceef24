import type { Node } from 'yaml';
import { readCompatPolicy } from './compat-policy.js';
import type { ImportContext } from './legacy-shape.js';
import { documentedFreshness, keepOtherKeys, readFormat, readLegacyColumns, readPartition, semver } from './legacy-shape.js';
import { nativePartition } from './partition-text.js';
import { readOwnerValue } from './read-people.js';
import { readArrival, setSla } from './read-sla-text.js';

const TOP = ['name', 'version', 'owner', 'description', 'produces', 'schema', 'sla', 'compat'];
const SLA = ['arrival_by', 'timezone', 'max_lag_hours', 'warn_lag_hours', 'freshness_column', 'min_rows', 'max_rows'];

/**
 * The pipeline post's `contracts/orders_v1.yaml`: `name`, `version: 1`, `owner: <team>`,
 * `produces: { uri, format }`, `schema: { grain, columns }` (`required`, `enum`, `min`), `sla:
 * { arrival_by, timezone, max_lag_hours, min_rows, max_rows }` and `compat: { additive_columns,
 * rename, type_narrow }`. Its keys are mostly the native ones; what differs is the owner, the
 * URI and the compat policy.
 */
export function fromPipelinePost(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  draft.name = nodes.text(nodes.child(root, 'name'));
  draft.version = semver(c, nodes.child(root, 'version'), 'version');
  readOwnerValue(c, nodes.child(root, 'owner'), 'owner');
  const description = nodes.text(nodes.child(root, 'description'))?.trim();
  if (description) draft.description = description;
  readProduces(c, nodes.child(root, 'produces'));
  const schema = nodes.child(root, 'schema');
  readLegacyColumns(c, nodes.child(schema, 'columns'), 'schema.columns', 'generic');
  const grain = nodes.strings(nodes.child(schema, 'grain'));
  if (grain) draft.schema.grain = grain;
  keepOtherKeys(c, schema, 'schema', ['columns', 'grain'], { key: 'schema' });
  readSla(c, nodes.child(root, 'sla'));
  readCompatPolicy(c, nodes.child(root, 'compat'), 'compat');
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

/** `uri: s3://lake/landing/orders/dt={ds}/`: the gate chooses where drops go; the URI's key=value tail is the partition layout. */
function readProduces(c: ImportContext, node: Node | null | undefined): void {
  const { nodes } = c;
  readFormat(c, nodes.child(node, 'format'), 'produces.format');
  readPartition(c, nodes.child(node, 'partition'), 'produces.partition');
  const uriNode = nodes.child(node, 'uri');
  const uri = nodes.text(uriNode);
  if (uri !== undefined) {
    c.log.note({ key: 'produces' }, `the source writes to ${uri}; the gate reads drops under staging/<name>/v<major>/ and publishes them (see the README's layout)`);
    if (c.draft.produces.partition === undefined) partitionOfUri(c, uri, uriNode);
  }
  keepOtherKeys(c, node, 'produces', ['format', 'partition', 'uri'], { key: 'produces' });
}

function partitionOfUri(c: ImportContext, uri: string, node: Node | null | undefined): void {
  const segments = uri.replace(/^[a-z0-9+.-]+:\/\/[^/]*/i, '').split('/').filter((s) => s !== '');
  const tail: string[] = [];
  for (const segment of segments.reverse()) {
    if (!segment.includes('=')) break;
    tail.unshift(segment);
  }
  if (tail.length === 0) return;
  const read = nativePartition(tail.join('/'));
  if ('template' in read) c.draft.produces.partition = read.template;
  else c.log.placeholder('produces.uri', node, { key: 'produces' }, `the partition layout of ${uri} is no template the gate reads (${read.problem}): dt={ds} is written; set produces.partition`);
}

function readSla(c: ImportContext, node: Node | null | undefined): void {
  const { nodes } = c;
  if (node === undefined) return;
  readArrival(c, nodes.child(node, 'arrival_by'), 'sla.arrival_by', nodes.child(node, 'timezone'));
  const number = (key: string) => {
    const value = nodes.child(node, key);
    const read = nodes.number(value);
    if (value !== undefined && read === undefined) c.log.error(`sla.${key}`, value, `expected a number for ${key}`);
    return read;
  };
  setSla(c, {
    max_lag_hours: number('max_lag_hours'), warn_lag_hours: number('warn_lag_hours'), freshness_column: nodes.text(nodes.child(node, 'freshness_column')),
    min_rows: number('min_rows'), max_rows: number('max_rows'),
  });
  documentedFreshness(c, 'updated_at', 'the pipeline post measures max_lag_hours on the newest updated_at (its assert_contract reads df["updated_at"])');
  keepOtherKeys(c, node, 'sla', SLA, { key: 'sla' });
}
