import type { Node } from 'yaml';
import type { ImportContext } from './legacy-shape.js';
import { keepAsNote, keepOtherKeys, readLegacyColumns, semver } from './legacy-shape.js';
import { readExtraFields, readQuality } from './lesson-quality.js';
import { readConsumer } from './read-people.js';

const TOP = ['contract', 'dataset', 'schema', 'quality', 'changelog', 'on_additional_fields'];
const CONTRACT = ['id', 'name', 'version', 'status', 'producer', 'consumer', 'description'];
const DATASET = ['name', 'description'];

/**
 * The lesson's `contracts/orders_v1.yaml`: `contract: { id, version, status, producer, consumer }`,
 * `dataset: { name, description, ... }`, `schema.fields` (`nullable`, `allowed_values`, `tests`),
 * `quality: { uniqueness, freshness_*_after_minutes, row_count_minimum_per_hour }`, `changelog`.
 */
export function fromLesson(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  const contract = nodes.child(root, 'contract');
  const dataset = nodes.child(root, 'dataset');
  draft.name = nodes.text(nodes.child(contract, 'id')) ?? nodes.text(nodes.child(contract, 'name')) ?? nodes.text(nodes.child(dataset, 'name'));
  if (draft.name !== nodes.text(nodes.child(dataset, 'name'))) keepAsNote(c, nodes.child(dataset, 'name'), 'dataset.name (the table the source loads into)', { key: 'name' });
  draft.version = semver(c, nodes.child(contract, 'version'), 'contract.version');
  readStatus(c, nodes.child(contract, 'status'));
  readProducer(c, nodes.child(contract, 'producer'));
  const consumer = nodes.child(contract, 'consumer');
  if (consumer !== undefined) readConsumer(c, consumer, 'contract.consumer');
  const description = nodes.text(nodes.child(dataset, 'description')) ?? nodes.text(nodes.child(contract, 'description'));
  if (description) draft.description = description.trim();
  keepOtherKeys(c, contract, 'contract', CONTRACT, { key: 'name' });
  keepOtherKeys(c, dataset, 'dataset', DATASET, { key: 'description' });
  const schema = nodes.child(root, 'schema');
  readLegacyColumns(c, nodes.child(schema, 'fields'), 'schema.fields', 'generic');
  keepOtherKeys(c, schema, 'schema', ['fields'], { key: 'schema' });
  readExtraFields(c, nodes.child(root, 'on_additional_fields') ?? nodes.child(contract, 'on_additional_fields'));
  readQuality(c, nodes.child(root, 'quality'));
  keepAsNote(c, nodes.child(root, 'changelog'), 'changelog', { key: 'version' });
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

function readProducer(c: ImportContext, node: Node | null | undefined): void {
  const { nodes, draft } = c;
  draft.owner.team = nodes.text(nodes.child(node, 'team'));
  draft.owner.notify = nodes.strings(nodes.child(node, 'contact'));
  keepAsNote(c, nodes.child(node, 'repo'), 'producer repository', { key: 'owner' });
  keepOtherKeys(c, node, 'contract.producer', ['team', 'contact', 'repo'], { key: 'owner' });
}

/** active and retired are native; deprecated needs a sunset date the lesson's shape has no key for. */
function readStatus(c: ImportContext, node: Node | null | undefined): void {
  const status = c.nodes.text(node)?.toLowerCase();
  if (status === 'active' || status === 'retired') c.draft.status = status;
  else if (status === 'deprecated') c.log.placeholder('contract.status', node, { key: 'name' }, 'status deprecated needs a sunset date: add status: deprecated and sunset: YYYY-MM-DD (written as active)');
  else if (status !== undefined) c.log.error('contract.status', node, `status "${status}" is not active, deprecated or retired`);
}
