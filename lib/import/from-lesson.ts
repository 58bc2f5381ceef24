import type { ImportContext } from './legacy-shape.js';
import { keepOtherKeys, readLegacyColumns, semver } from './legacy-shape.js';

const TOP = ['contract', 'schema', 'quality', 'freshness_warn_after_minutes', 'freshness_error_after_minutes', 'freshness_column'];
const CONTRACT = ['id', 'name', 'version', 'producer', 'description'];

/**
 * The lesson shape: `contract: { id, version, producer: { team, contact } }`, `schema.fields`,
 * `quality.uniqueness` and `freshness_warn_after_minutes` / `freshness_error_after_minutes`.
 * Detected by `schema.fields`, or `contract.producer`.
 */
export function fromLesson(c: ImportContext): void {
  const { nodes, draft } = c;
  const root = nodes.root;
  const contract = nodes.child(root, 'contract');
  draft.name = nodes.text(nodes.child(contract, 'id')) ?? nodes.text(nodes.child(contract, 'name'));
  draft.version = semver(c, nodes.child(contract, 'version'), 'contract.version');
  const producer = nodes.child(contract, 'producer');
  draft.owner.team = nodes.text(nodes.child(producer, 'team'));
  draft.owner.notify = nodes.strings(nodes.child(producer, 'contact'));
  keepOtherKeys(c, producer, 'contract.producer', ['team', 'contact'], { key: 'owner' });
  const description = nodes.text(nodes.child(contract, 'description'));
  if (description) draft.description = description;
  keepOtherKeys(c, contract, 'contract', CONTRACT, { key: 'name' });
  const schema = nodes.child(root, 'schema');
  readLegacyColumns(c, nodes.child(schema, 'fields'), 'schema.fields', 'generic');
  keepOtherKeys(c, schema, 'schema', ['fields'], { key: 'schema' });
  readQuality(c);
  readFreshness(c);
  keepOtherKeys(c, root, '', TOP, { key: 'name' });
}

/** `quality.uniqueness: [order_id]` is the grain; `[[a, b]]` a composite one. */
function readQuality(c: ImportContext): void {
  const { nodes, draft } = c;
  const quality = nodes.child(nodes.root, 'quality');
  const uniqueness = nodes.child(quality, 'uniqueness');
  const lists = nodes.items(uniqueness).filter((item) => nodes.isList(item));
  const key = lists.length > 0 ? nodes.strings(lists[0]) : nodes.strings(uniqueness);
  if (key) draft.schema.grain = key;
  lists.slice(1).forEach((list, i) => c.log.notEnforced(`quality.uniqueness[${i + 1}]`, list, { key: 'schema' }, `a second unique key [${nodes.strings(list)?.join(', ') ?? '?'}] (the grain is the first)`));
  const rows = nodes.child(quality, 'row_count');
  const minRows = nodes.number(nodes.child(rows, 'min'));
  const maxRows = nodes.number(nodes.child(rows, 'max'));
  if (minRows !== undefined || maxRows !== undefined) draft.sla = { ...draft.sla, ...(minRows === undefined ? {} : { min_rows: minRows }), ...(maxRows === undefined ? {} : { max_rows: maxRows }) };
  keepOtherKeys(c, quality, 'quality', ['uniqueness', 'row_count'], { key: 'schema' });
}

/** The error threshold fails a drop; the gate has no warning threshold, so that one is a comment. */
function readFreshness(c: ImportContext): void {
  const { nodes, draft } = c;
  const errorNode = nodes.child(nodes.root, 'freshness_error_after_minutes');
  const warnNode = nodes.child(nodes.root, 'freshness_warn_after_minutes');
  const errorAfter = nodes.number(errorNode);
  const column = nodes.text(nodes.child(nodes.root, 'freshness_column'));
  if (errorAfter !== undefined) draft.sla = { ...draft.sla, max_lag_hours: Number((errorAfter / 60).toFixed(4)), ...(column ? { freshness_column: column } : {}) };
  if (errorAfter !== undefined) c.log.note({ key: 'sla' }, `max_lag_hours is freshness_error_after_minutes: ${errorAfter} from the source`);
  const warnAfter = nodes.number(warnNode);
  if (warnAfter !== undefined) c.log.notEnforced('freshness_warn_after_minutes', warnNode, { key: 'sla' }, `a freshness warning after ${warnAfter} minutes (the gate has one limit, max_lag_hours, which fails the drop)`);
}
