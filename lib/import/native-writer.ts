import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import { withExactBounds } from '../export/exact-number.js';
import type { Draft, DraftColumn, Note } from './import-draft.js';

/** Top-level keys in the order of the README's example contract. */
const KEY_ORDER = ['name', 'version', 'status', 'owner', 'description', 'produces', 'schema', 'sla', 'consumers', 'compat'] as const;

/** SLA keys in the order of the README's example contract. */
const SLA_KEYS = ['arrival_by', 'timezone', 'max_lag_hours', 'warn_lag_hours', 'freshness_column', 'min_rows', 'max_rows'];

/** Column keys in the order of the native reader's list. */
const COLUMN_KEYS = ['name', 'type', 'required', 'required_when', 'enum', 'min', 'max', 'pattern', 'min_length', 'max_length', 'unique', 'not_in_future', 'references', 'default', 'severity', 'description'];

function pick<T extends object>(value: T, keys: readonly string[]): Partial<T> {
  return Object.fromEntries(keys.filter((key) => (value as Record<string, unknown>)[key] !== undefined).map((key) => [key, (value as Record<string, unknown>)[key]])) as Partial<T>;
}

/**
 * Writes a draft as a native contract file: the layout of contracts/orders.v1.yaml (one flow
 * mapping per column), with the notes as comments before the key or column they are about and
 * `header` as the file's opening comment.
 */
export function writeNativeContract(draft: Draft, notes: readonly Note[], header: string): string {
  const ordered: Record<string, unknown> = Object.fromEntries(KEY_ORDER.filter((key) => draft[key as keyof Draft] !== undefined).map((key) => [key, draft[key as keyof Draft]]));
  ordered.schema = { ...pick(draft.schema, ['grain', 'extra_columns', 'severity']), columns: draft.schema.columns.map((column) => withExactBounds(pick(column, COLUMN_KEYS) as DraftColumn)) };
  if (draft.sla) ordered.sla = pick(draft.sla, SLA_KEYS);
  const doc = new Document(ordered);
  doc.commentBefore = header.split('\n').map((line) => ` ${line}`).join('\n');
  flowAt(doc, ['owner']);
  flowAt(doc, ['produces']);
  flowAt(doc, ['compat']);
  flowAt(doc, ['schema', 'grain']);
  // "06:00" unquoted is a number (sexagesimal) to a YAML 1.1 reader; the README writes it quoted.
  const arrival = doc.getIn(['sla', 'arrival_by'], true);
  if (isScalar(arrival)) arrival.type = 'QUOTE_DOUBLE';
  const columns = doc.getIn(['schema', 'columns'], true);
  if (isSeq(columns)) for (const item of columns.items) if (isMap(item)) item.flow = true;
  const consumers = doc.getIn(['consumers'], true);
  if (isSeq(consumers)) for (const item of consumers.items) if (isMap(item)) item.flow = true;
  for (const note of notes) attach(doc, note);
  return doc.toString({ lineWidth: 0, flowCollectionPadding: false });
}

function flowAt(doc: Document, path: string[]): void {
  const node = doc.getIn(path, true);
  if (isMap(node) || isSeq(node)) node.flow = true;
}

/** A note before its column, or before its top-level key (after the notes already there). */
function attach(doc: Document, note: Note): void {
  const target = 'column' in note.target ? columnNode(doc, note.target.column) : keyNode(doc, note.target.key);
  const line = ` ${note.text.replaceAll('\n', ' ')}`;
  // A note about a key the contract does not have (no sla to carry a freshness promise) ends the file.
  if (!target) {
    doc.comment = doc.comment ? `${doc.comment}\n${line}` : line;
    return;
  }
  target.commentBefore = target.commentBefore ? `${target.commentBefore}\n${line}` : line;
}

function columnNode(doc: Document, index: number): Node | undefined {
  const columns = doc.getIn(['schema', 'columns'], true);
  return isSeq(columns) ? (columns.items[index] as Node | undefined) : undefined;
}

function keyNode(doc: Document, key: string): Node | undefined {
  const root = doc.contents;
  if (!isMap(root)) return undefined;
  const pair = root.items.find((p) => isScalar(p.key) && p.key.value === key);
  return pair && isScalar(pair.key) ? pair.key : undefined;
}
