import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readLegacyColumns, semver } from './legacy-shape.js';
import { readConsumerList, readOwnerValue } from './read-people.js';
import { readArrival, setSla } from './read-sla-text.js';

const TOP = ['contract', 'schema', 'consumers'];
const CONTRACT = ['name', 'id', 'version', 'owner', 'consumers', 'grain', 'sla', 'description'];
const SLA = ['available_by', 'freshness_max_lag_hours'];

/**
 * The skill's `contracts/churn_features_v2.yaml`: `contract: { name, version, owner, consumers,
 * grain, sla: { available_by, freshness_max_lag_hours } }` beside a top-level `schema` list with
 * BigQuery-style types (STRING, INTEGER, FLOAT, DATE) and `range`. Its consumer registration
 * (`consumers: [{ team, contact, uses, ... }]`) may stand beside them, as the skill says it belongs
 * in the contract.
 */
export function fromSkill(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  const contract = nodes.child(root, 'contract');
  draft.name = nodes.text(nodes.child(contract, 'name')) ?? nodes.text(nodes.child(contract, 'id'));
  draft.version = semver(c, nodes.child(contract, 'version'), 'contract.version');
  readOwnerValue(c, nodes.child(contract, 'owner'), 'contract.owner');
  const description = nodes.text(nodes.child(contract, 'description'))?.trim();
  if (description) draft.description = description;
  readLegacyColumns(c, nodes.child(root, 'schema'), 'schema', 'bigquery');
  readGrain(c, nodes.child(contract, 'grain'));
  readSla(c, nodes.child(contract, 'sla'));
  readConsumerList(c, nodes.child(contract, 'consumers'), 'contract.consumers');
  readConsumerList(c, nodes.child(root, 'consumers'), 'consumers');
  keepOtherKeys(c, contract, 'contract', CONTRACT, { key: 'name' });
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

/**
 * The grain is prose ("One row per customer_id per feature_date"). It is the grain only when
 * every "per" names a column of the schema; otherwise it stays a TODO, since a guessed key would
 * fail good data.
 */
function readGrain(c: ImportContext, node: Node | null | undefined): void {
  const listed = c.nodes.isList(node) ? c.nodes.strings(node) : undefined;
  const text = c.nodes.text(node);
  if (node === undefined || (listed === undefined && text === undefined)) return;
  const declared = new Set(c.draft.schema.columns.map((col) => col.name));
  const named = listed ?? /^\s*one\s+row\s+per\s+(.+?)\.?\s*$/i.exec(text ?? '')?.[1]?.split(/\s*(?:\bper\b|,|\band\b)\s*/i).filter((part) => part !== '');
  if (named && named.length > 0 && named.every((name) => declared.has(name))) {
    c.draft.schema.grain = named;
    if (!listed) c.log.note({ key: 'schema' }, `grain [${named.join(', ')}] is the source's "${text ?? ''}"`);
    return;
  }
  c.log.placeholder('contract.grain', node, { key: 'schema' }, `the grain "${text ?? listed?.join(', ') ?? ''}" does not name the schema's columns: write schema.grain as the list of columns that identify a row`);
}

function readSla(c: ImportContext, node: Node | null | undefined): void {
  if (node === undefined) return;
  readArrival(c, c.nodes.child(node, 'available_by'), 'contract.sla.available_by');
  const lagNode = c.nodes.child(node, 'freshness_max_lag_hours');
  const lag = c.nodes.number(lagNode);
  if (lagNode !== undefined && lag === undefined) c.log.error('contract.sla.freshness_max_lag_hours', lagNode, 'expected a number of hours');
  setSla(c, { max_lag_hours: lag });
  keepOtherKeys(c, node, 'contract.sla', SLA, { key: 'sla' });
}
