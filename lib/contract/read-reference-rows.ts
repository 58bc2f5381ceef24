import { isMap, isScalar, type Node } from 'yaml';
import { formatColumnType, isNumericType, type ColumnType } from './column-type.js';
import type { ColumnSpec, ContractSchema, ExpectedCell, ReferenceCell, ReferenceRow, ReferenceScalar } from './model.js';
// The engine's own text readers: a value the loader accepts is one the check plan reads (reference-rows.ts).
import { parseTextDate, parseTextInstant, parseTextWallClock } from '../checks/text-timestamps.js';
import { describeValue, type YamlReader } from './yaml-reader.js';

export const REFERENCE_ROW_KEYS = ['key', 'expect', 'required', 'severity', 'description'] as const;
export const EXPECTED_VALUE_KEYS = ['value', 'absolute', 'relative'] as const;

/** What the rows are checked against: the schema as read, and every column name written down. */
export interface ReferenceRowContext {
  readonly schema: ContractSchema;
  /** Names of columns declared, also of columns with other mistakes (reported already). */
  readonly declared: ReadonlySet<string>;
}

/** The most reference rows a contract may list: each is looked up in every row's key, and reviewed by people. */
export const MAX_REFERENCE_ROWS = 1000;

/**
 * Reads `reference_rows`: a list of `{ key: { <grain column>: value, ... }, expect: { <column>:
 * value | { value, absolute?, relative? } }, required?, severity?, description? }`. Every value is
 * checked against its column's type here, so the gate never meets a reference it cannot compare.
 */
export function readReferenceRows(reader: YamlReader, node: Node | null, context: ReferenceRowContext, path = 'reference_rows'): ReferenceRow[] | undefined {
  const items = reader.items(node, path);
  if (!items) return undefined;
  if (context.schema.grain.length === 0) {
    reader.report('invalid_value', path, node, 'reference rows are found by their key, and this contract has no schema.grain: declare the grain (the columns that identify a row) first');
    return undefined;
  }
  if (items.length > MAX_REFERENCE_ROWS) {
    reader.report('invalid_value', path, node, `expected at most ${MAX_REFERENCE_ROWS} reference rows, found ${items.length}: keep a few known rows, not a copy of the data`);
    return undefined;
  }
  const rows = items.map((item, i) => readRow(reader, item, `${path}[${i}]`, context));
  checkDistinctKeys(reader, items, rows, path);
  return rows.every((row) => row !== undefined) ? (rows as ReferenceRow[]) : undefined;
}

function readRow(reader: YamlReader, node: Node | null, path: string, context: ReferenceRowContext): ReferenceRow | undefined {
  const entries = reader.map(node, path, REFERENCE_ROW_KEYS);
  if (!entries) return undefined;
  const get = (key: string, required = false) => reader.field(entries, node, path, key, required);
  const keyNode = get('key', true);
  const key = keyNode === undefined ? undefined : readKey(reader, keyNode, `${path}.key`, context);
  const expectNode = get('expect');
  const expected = expectNode === undefined ? [] : readExpect(reader, expectNode, `${path}.expect`, context);
  const requiredNode = get('required');
  const required = requiredNode === undefined ? false : reader.boolean(requiredNode, `${path}.required`);
  const severityNode = get('severity');
  const severity = severityNode === undefined ? undefined : reader.oneOf(severityNode, `${path}.severity`, ['error', 'warn'] as const);
  const descriptionNode = get('description');
  const description = descriptionNode === undefined ? undefined : reader.string(descriptionNode, `${path}.description`);
  if (expected?.length === 0 && required === false) {
    reader.report('missing_key', `${path}.expect`, node, 'a reference row checks something: list the values it must hold under expect, or mark it required: true to require only that it is present');
    return undefined;
  }
  if (!key || !expected || required === undefined || (severityNode !== undefined && !severity) || (descriptionNode !== undefined && !description)) return undefined;
  return { key, expect: expected, required, ...(severity === 'warn' ? { severity } : {}), ...(description ? { description } : {}) };
}

/** The key names every grain column, and only those, each with a value of its type. */
function readKey(reader: YamlReader, node: Node | null, path: string, context: ReferenceRowContext): ReferenceCell[] | undefined {
  const { grain } = context.schema;
  const entries = reader.map(node, path, grain);
  if (!entries) return undefined;
  const lacking = grain.filter((column) => !entries.has(column));
  if (lacking.length > 0) {
    reader.report('missing_key', path, node, `the key must give every column of schema.grain (${grain.join(', ')}); it lacks ${lacking.join(', ')}`);
  }
  // Unknown keys were reported by map(): a key column that is not in the grain is such a key.
  if (lacking.length > 0 || countKeys(reader, node) !== entries.size) return undefined;
  const cells = grain.map((column) => {
    const spec = context.schema.columns.find((c) => c.name === column);
    return spec ? readValue(reader, entries.get(column)!.value, `${path}.${column}`, spec) : undefined;
  });
  return cells.every((v) => v !== undefined) ? grain.map((column, i) => ({ column, value: cells[i]! })) : undefined;
}

function readExpect(reader: YamlReader, node: Node | null, path: string, context: ReferenceRowContext): ExpectedCell[] | undefined {
  const names = context.schema.columns.map((c) => c.name).filter((name) => !context.schema.grain.includes(name));
  const resolved = reader.resolve(node);
  if (!resolved || !isMap(resolved)) return reader.map(node, path, names) && undefined;
  const cells: (ExpectedCell | undefined)[] = [];
  for (const pair of resolved.items) {
    const column = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const at = `${path}.${column ?? '?'}`;
    const spec = context.schema.columns.find((c) => c.name === column);
    if (column === undefined) reader.report('wrong_type', path, pair.key as Node, 'expected a column name');
    else if (context.schema.grain.includes(column)) reader.report('invalid_value', at, pair.key as Node, `"${column}" is part of the grain: it goes under key, not expect`);
    else if (!context.declared.has(column)) reader.report('unknown_column', at, pair.key as Node, `"${column}" is not a column of schema.columns`);
    cells.push(spec && column !== undefined && !context.schema.grain.includes(column) ? readExpected(reader, reader.resolve(pair.value as Node | null), at, spec) : undefined);
  }
  if (resolved.items.length === 0) reader.report('invalid_value', path, resolved, 'expected at least one column and the value it must hold');
  return cells.length > 0 && cells.length === resolved.items.length && cells.every((c) => c !== undefined) ? (cells as ExpectedCell[]) : undefined;
}

/** A value, or `{ value, absolute?, relative? }` for a number that may differ by a tolerance. */
function readExpected(reader: YamlReader, node: Node | null, path: string, spec: ColumnSpec): ExpectedCell | undefined {
  if (!node || !isMap(node)) {
    const value = readValue(reader, node, path, spec);
    return value === undefined ? undefined : { column: spec.name, value };
  }
  const entries = reader.map(node, path, EXPECTED_VALUE_KEYS);
  if (!entries) return undefined;
  const valueNode = reader.field(entries, node, path, 'value', true);
  const value = valueNode === undefined ? undefined : readValue(reader, valueNode, `${path}.value`, spec);
  const tolerance = (key: 'absolute' | 'relative'): number | undefined | null => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (!isNumericType(spec.type)) {
      reader.report('rule_not_for_type', `${path}.${key}`, entry.key, `a tolerance applies to numeric columns, not to ${formatColumnType(spec.type)}: compare it exactly`);
      return null;
    }
    return reader.number(entry.value, `${path}.${key}`, { min: 0 }) ?? null;
  };
  const [absolute, relative] = [tolerance('absolute'), tolerance('relative')];
  if (value === undefined || absolute === null || relative === null) return undefined;
  return { column: spec.name, value, ...(absolute === undefined ? {} : { absolute }), ...(relative === undefined ? {} : { relative }) };
}

/**
 * A value of the column's type, kept as written: a number where a double holds it exactly, its
 * text where it does not (an int64 past 2^53, a decimal of more than 15 digits), ISO text for
 * dates and timestamps.
 */
export function readValue(reader: YamlReader, node: Node | null, path: string, spec: ColumnSpec): ReferenceScalar | undefined {
  const raw = reader.scalar(node, path);
  if (raw === undefined) return undefined;
  const source = isScalar(node) && typeof node.source === 'string' && typeof raw === 'number' ? node.source : undefined;
  const value = valueOf(spec.type, raw, source);
  if (value !== undefined) return value;
  reader.report('wrong_type', path, node, `expected a value of ${spec.name}'s type ${formatColumnType(spec.type)}${HOW[spec.type.kind] ?? ''}, found ${describeValue(raw)}`);
  return undefined;
}

const HOW: Partial<Record<ColumnType['kind'], string>> = {
  string: ' (a string: quote a value that looks like a number)',
  binary: ' (a string of its bytes)',
  boolean: ' (true or false)',
  int32: ' (a whole number)',
  int64: ' (a whole number)',
  date: ' (an ISO date such as "2026-11-30")',
  timestamp: ' (an ISO timestamp with an offset such as "2026-11-30T06:00:00Z")',
  timestamp_ntz: ' (an ISO timestamp without an offset such as "2026-11-30T06:00:00")',
};

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?$/;

function valueOf(type: ColumnType, raw: unknown, source: string | undefined): ReferenceScalar | undefined {
  switch (type.kind) {
    case 'string':
    case 'binary': return typeof raw === 'string' ? raw : undefined;
    case 'boolean': return typeof raw === 'boolean' ? raw : undefined;
    case 'int32': return typeof raw === 'number' && Number.isInteger(raw) && Math.abs(raw) <= 2 ** 31 - (raw < 0 ? 0 : 1) ? raw : undefined;
    case 'int64': return int64Of(typeof raw === 'string' ? raw : source, raw);
    case 'float32':
    case 'float64': return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined;
    case 'decimal': return decimalOf(type, typeof raw === 'string' ? raw : source, raw);
    case 'date': return typeof raw === 'string' && parseTextDate(raw) !== undefined ? raw : undefined;
    case 'timestamp': return typeof raw === 'string' && parseTextInstant(raw) !== undefined ? raw : undefined;
    case 'timestamp_ntz': return typeof raw === 'string' && parseTextWallClock(raw) !== undefined ? raw : undefined;
  }
}

function int64Of(text: string | undefined, raw: unknown): ReferenceScalar | undefined {
  if (text === undefined || !INTEGER.test(text.trim())) return undefined;
  const big = BigInt(text.trim());
  if (big < -(2n ** 63n) || big > 2n ** 63n - 1n) return undefined;
  return Number.isSafeInteger(Number(big)) && typeof raw === 'number' ? Number(big) : big.toString();
}

/** Digits that fit decimal(p,s); kept as text when a double would not hold them all. */
function decimalOf(type: { precision: number; scale: number }, text: string | undefined, raw: unknown): ReferenceScalar | undefined {
  const trimmed = text?.trim() ?? '';
  const match = DECIMAL.exec(trimmed);
  if (!match || trimmed === '' || trimmed === '.' || /^[+-]?\.?$/.test(trimmed)) return undefined;
  const whole = (match[1] ?? '').replace(/^0+/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (whole.length > type.precision - type.scale || fraction.length > type.scale) return undefined;
  return typeof raw === 'number' && (whole + fraction).replace(/^0+/, '').length <= 15 ? raw : trimmed;
}

function countKeys(reader: YamlReader, node: Node | null): number {
  const map = reader.resolve(node);
  return map && isMap(map) ? map.items.length : 0;
}

/** Two rows with one key would each judge the same data row: one of them is a mistake. */
function checkDistinctKeys(reader: YamlReader, items: readonly (Node | null)[], rows: readonly (ReferenceRow | undefined)[], path: string): void {
  const seen = new Map<string, number>();
  rows.forEach((row, i) => {
    if (!row) return;
    const text = row.key.map((cell) => `${cell.column}=${String(cell.value)}`).join(', ');
    const first = seen.get(text);
    if (first === undefined) seen.set(text, i);
    else reader.report('duplicate_reference_row', `${path}[${i}].key`, items[i], `${path}[${first}] has the same key (${text}): merge the two rows`);
  });
}
