import type { Node } from 'yaml';
import { ColumnRules } from './column-rules.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportLog } from './import-log.js';
import { readLegacyTests } from './legacy-tests.js';
import type { SourceNodes } from './source-nodes.js';
import { KNOWN_TYPE_NAMES, mapTypeName, type Dialect } from './type-names.js';

/** One column of a legacy YAML contract, as far as it converts. */
export interface LegacyColumn {
  readonly column?: DraftColumn;
  /** `primary_key: true`: part of the grain. */
  readonly primaryKey: boolean;
}

interface Context {
  readonly nodes: SourceNodes;
  readonly log: ImportLog;
  readonly rules: ColumnRules;
  readonly column: DraftColumn;
  readonly index: number;
  readonly path: string;
  readonly value: Node | null;
  readonly key: string;
  /** The whole column mapping, for a rule that reads a sibling key. */
  readonly field: Node;
  readonly state: { primaryKey: boolean };
}

type Handler = (c: Context) => void;

const enumKey: Handler = (c) => {
  const values = c.nodes.scalars(c.value);
  if (values && values.length > 0) c.rules.enumOf(values, c.key, c.value);
  else c.log.error(`${c.path}.${c.key}`, c.value, `expected a list of allowed values, e.g. ${c.key}: [placed, paid]`);
};
const bound = (which: 'min' | 'max'): Handler => (c) => {
  // `"max": None` (Python) or `max: null`: the source says there is no bound.
  if (c.nodes.value(c.value) === null || c.nodes.text(c.value) === 'None') return;
  const value = c.nodes.bound(c.value);
  if (value === undefined) c.log.error(`${c.path}.${c.key}`, c.value, `expected a number or an ISO date for ${c.key}`);
  else c.rules.bound(which, value, c.key, c.value);
};
const length = (which: 'min_length' | 'max_length'): Handler => (c) => {
  const value = c.nodes.number(c.value);
  if (value === undefined || !Number.isInteger(value) || value < 0) c.log.error(`${c.path}.${c.key}`, c.value, `expected a whole number for ${c.key}`);
  else c.rules.length(which, value, c.key, c.value);
};
const flag = (apply: (c: Context, on: boolean) => void): Handler => (c) => {
  const value = c.nodes.value(c.value);
  if (typeof value === 'boolean') apply(c, value);
  else c.log.error(`${c.path}.${c.key}`, c.value, `expected true or false for ${c.key}`);
};

/** The keys the four legacy shapes use on a column, and what each becomes natively. */
const HANDLERS: Readonly<Record<string, Handler>> = {
  name: () => undefined,
  type: () => undefined,
  data_type: () => undefined,
  description: (c) => { const text = c.nodes.text(c.value)?.trim(); if (text) c.column.description = text; },
  nullable: flag((c, on) => { if (!on) c.column.required = true; }),
  required: flag((c, on) => { if (on) c.column.required = true; }),
  not_null: flag((c, on) => { if (on) c.column.required = true; }),
  unique: flag((c, on) => { if (on) c.column.unique = true; }),
  primary_key: flag((c, on) => { c.state.primaryKey = on; }),
  not_in_future: flag((c, on) => { if (on) c.rules.notInFuture(c.key, c.value); }),
  enum: enumKey,
  allowed: enumKey,
  allowed_values: enumKey,
  accepted_values: enumKey,
  min: bound('min'),
  max: bound('max'),
  minimum: bound('min'),
  maximum: bound('max'),
  range: (c) => {
    for (const key of c.nodes.keys(c.value)) {
      const which = key === 'min' || key === 'max' ? key : undefined;
      const node = c.nodes.child(c.value, key);
      if (which) bound(which)({ ...c, key: `range.${key}`, value: node ?? null });
      else c.log.notEnforced(`${c.path}.range.${key}`, node, { column: c.index }, `range.${key}`);
    }
  },
  pattern: (c) => { const text = c.nodes.text(c.value); if (text) c.rules.pattern(text, c.key, c.value); },
  regex: (c) => { const text = c.nodes.text(c.value); if (text) c.rules.pattern(text, c.key, c.value); },
  min_length: length('min_length'),
  max_length: length('max_length'),
  tests: (c) => readLegacyTests({ nodes: c.nodes, log: c.log, rules: c.rules, field: c.field, index: c.index, column: c.column }, c.value, `${c.path}.tests`),
};

/** How a shape writes its columns: whose type names, and the name when it is the key of a mapping (the course's `fields`). */
export interface ColumnShape {
  readonly dialect: Dialect;
  readonly name?: string;
}

export function readLegacyColumn(nodes: SourceNodes, log: ImportLog, node: Node | null, path: string, index: number, shape: ColumnShape): LegacyColumn {
  if (!node || !nodes.isMap(node)) {
    log.error(path, node, 'expected a column: a mapping with name and type');
    return { primaryKey: false };
  }
  const dialect = shape.dialect;
  const name = shape.name ?? nodes.text(nodes.child(node, 'name'));
  const typeKey = nodes.child(node, 'type') !== undefined ? 'type' : 'data_type';
  const typeNode = nodes.child(node, typeKey);
  const typeText = nodes.text(typeNode);
  if (name === undefined) log.error(`${path}.name`, node, 'the column has no name; add name: <column name as in the files>');
  if (typeText === undefined) log.error(`${path}.type`, typeNode ?? node, `column "${name ?? '?'}" has no type; add type: with one of ${KNOWN_TYPE_NAMES}`);
  const mapped = typeText === undefined ? undefined : mapTypeName(typeText, dialect);
  if (typeText !== undefined && !mapped) log.error(`${path}.${typeKey}`, typeNode, `unknown type "${typeText}" of column "${name ?? '?'}"; expected one of ${KNOWN_TYPE_NAMES}, or write the native type (string, int64, decimal(p,s), timestamp, ...)`);
  if (name === undefined || !mapped) return { primaryKey: false };
  const column: DraftColumn = { name, type: mapped.type, ...(mapped.maxLength === undefined ? {} : { max_length: mapped.maxLength }) };
  if (mapped.note) log.note({ column: index }, `${name}: ${mapped.note}`);
  const context = { nodes, log, rules: new ColumnRules(log, column, index, path), column, index, path, field: node, state: { primaryKey: false } };
  for (const key of nodes.keys(node)) {
    const value = nodes.child(node, key) ?? null;
    const handler = Object.hasOwn(HANDLERS, key) ? HANDLERS[key] : undefined;
    if (handler) handler({ ...context, key, value });
    else log.notEnforced(`${path}.${key}`, nodes.keyNode(node, key), { column: index }, `${name}.${key}: ${describe(nodes, value)}`);
  }
  return { column, primaryKey: context.state.primaryKey };
}

export function describe(nodes: SourceNodes, node: Node | null | undefined): string {
  const text = node?.toString?.() ?? String(nodes.value(node));
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
