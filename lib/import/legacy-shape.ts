import type { Node } from 'yaml';
import type { Draft, NoteTarget } from './import-draft.js';
import type { ImportLog } from './import-log.js';
import { describe, readLegacyColumn } from './legacy-column.js';
import { nativePartition } from './partition-text.js';
import type { SourceNodes } from './source-nodes.js';
import type { Dialect } from './type-names.js';

/** What every importer gets: the source's nodes, the log, and the draft to fill. */
export interface ImportContext {
  readonly nodes: SourceNodes;
  readonly log: ImportLog;
  readonly draft: Draft;
}

/** A list of legacy columns into the draft; `primary_key: true` columns become the grain. */
export function readLegacyColumns(c: ImportContext, node: Node | null | undefined, path: string, dialect: Dialect): void {
  if (!c.nodes.isList(node)) {
    c.log.error(path, node, `expected the list of columns under "${path}", each { name, type, ... }`);
    return;
  }
  const grain: string[] = [];
  c.nodes.items(node).forEach((item, i) => {
    const read = readLegacyColumn(c.nodes, c.log, item, `${path}[${i}]`, c.draft.schema.columns.length, { dialect });
    if (!read.column) return;
    c.draft.schema.columns.push(read.column);
    if (read.primaryKey) grain.push(read.column.name);
  });
  if (grain.length > 0) c.draft.schema.grain = grain;
  if (c.nodes.items(node).length === 0) c.log.error(path, node, 'the source lists no columns; a contract needs at least one');
}

/** Columns as a mapping from each name to its rules (`fields: { order_id: { type: int64 } }`). */
export function readColumnMap(c: ImportContext, node: Node | null | undefined, path: string, dialect: Dialect): void {
  const names = c.nodes.keys(node);
  if (!c.nodes.isMap(node) || names.length === 0) {
    c.log.error(path, node, `expected the columns under "${path}", each name mapped to its rules, e.g. { "order_id": { "type": "int64" } }`);
    return;
  }
  for (const name of names) {
    const read = readLegacyColumn(c.nodes, c.log, c.nodes.child(node, name) ?? null, `${path}.${name}`, c.draft.schema.columns.length, { dialect, name });
    if (read.column) c.draft.schema.columns.push(read.column);
  }
}

/** What the source says for people, not for the gate (a repository, a changelog): a comment, no warning. */
export function keepAsNote(c: ImportContext, node: Node | null | undefined, path: string, target: NoteTarget): void {
  if (node === undefined) return;
  c.log.note(target, `${path}: ${describe(c.nodes, node)}`);
}

/**
 * Where a shape's document says which column its freshness limit is measured on, that column,
 * when the contract has it; otherwise finishDraft picks one or leaves a TODO.
 */
export function documentedFreshness(c: ImportContext, column: string, why: string): void {
  const sla = c.draft.sla;
  const lags = sla?.max_lag_hours !== undefined || sla?.warn_lag_hours !== undefined;
  if (!sla || !lags || sla.freshness_column !== undefined) return;
  if (!c.draft.schema.columns.some((col) => col.name === column && /^(timestamp|timestamp_ntz|date)$/.test(col.type))) return;
  sla.freshness_column = column;
  c.log.note({ key: 'sla' }, `freshness_column ${column}: ${why}`);
}

/** Keys of a mapping no importer rule read: kept as comments with a warning, never dropped. */
export function keepOtherKeys(c: ImportContext, node: Node | null | undefined, path: string, handled: readonly string[], target: NoteTarget): void {
  for (const key of c.nodes.keys(node).filter((k) => !handled.includes(k))) {
    const where = path ? `${path}.${key}` : key;
    c.log.notEnforced(where, c.nodes.keyNode(node, key), target, `${where}: ${describe(c.nodes, c.nodes.child(node, key))}`);
  }
}

/** A legacy partition text (`dt=YYYY-MM-DD`, `dt={{ ds }}`) as the native template. */
export function readPartition(c: ImportContext, node: Node | null | undefined, path: string): void {
  const text = c.nodes.text(node);
  if (text === undefined) return;
  const read = nativePartition(text);
  if ('template' in read) {
    c.draft.produces.partition = read.template;
    if (read.template !== text) c.log.note({ key: 'produces' }, `partition "${text}" from the source is the template ${read.template}`);
  } else {
    c.log.error(path, node, `${read.problem}; write the partition as key={ds} or key={ds}/key={hh}`);
  }
}

/** `1` → 1.0.0, `1.2` → 1.2.0, `1.2.3` as is. */
export function semver(c: ImportContext, node: Node | null | undefined, path: string): string | undefined {
  const text = c.nodes.text(node);
  if (text === undefined) return undefined;
  const match = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(text.trim());
  if (!match) {
    c.log.error(path, node, `version "${text}" is not a number or MAJOR.MINOR.PATCH; write e.g. version: 1`);
    return undefined;
  }
  const version = `${match[1]}.${match[2] ?? 0}.${match[3] ?? 0}`;
  if (version !== text) c.log.note({ key: 'version' }, `version ${text} in the source is ${version}`);
  return version;
}

const COMPAT = ['backward', 'forward', 'full', 'none'] as const;

export function readCompat(c: ImportContext, node: Node | null | undefined, path: string): void {
  const text = c.nodes.text(node) ?? c.nodes.text(c.nodes.child(node, 'mode'));
  if (text === undefined) return;
  const mode = COMPAT.find((m) => m === text.toLowerCase().replace(/_transitive$/, ''));
  if (mode) c.draft.compat = { mode };
  else c.log.error(path, node, `compat "${text}" is not one of ${COMPAT.join(', ')}`);
}

export const FORMATS: Readonly<Record<string, 'parquet' | 'csv' | 'jsonl'>> = { parquet: 'parquet', csv: 'csv', json: 'jsonl', jsonl: 'jsonl', ndjson: 'jsonl' };

export function readFormat(c: ImportContext, node: Node | null | undefined, path: string): void {
  const text = c.nodes.text(node);
  if (text === undefined) return;
  const format = FORMATS[text.toLowerCase()];
  if (format) c.draft.produces.format = format;
  else c.log.error(path, node, `format "${text}" is not one the gate reads; expected parquet, csv or jsonl (json lines)`);
}
