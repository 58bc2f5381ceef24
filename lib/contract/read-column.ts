import { isScalar, type Node } from 'yaml';
import { foreignKeyHints } from './foreign-keys.js';
import { formatColumnType, isOrderedType, isTemporalType, parseColumnType, type ColumnType } from './column-type.js';
import { COLUMN_SEVERITY_RULES, type ColumnSpec } from './model.js';
import { checkDefault } from './read-default.js';
import { readReferences } from './read-references.js';
import { readSeverity, undeclaredColumnRules, withoutUndeclared } from './read-severity.js';
import { contractPatternBudget, patternProblem, type PatternBudget } from './pattern-matcher.js';
import { boundRangeProblem, type ReadBound } from './exact-bounds.js';
import { compareOrdered, decimalFromText, ExactValue } from './exact-value.js';
import { parseTemporalExact } from './temporal.js';
import { describeValue, type Entries, type YamlReader } from './yaml-reader.js';

export const COLUMN_KEYS = [
  'name', 'type', 'required', 'required_when', 'enum', 'min', 'max', 'pattern',
  'min_length', 'max_length', 'unique', 'not_in_future', 'default', 'description', 'severity', 'references',
] as const;

/** What a column's rules need from outside it: the contract's name (for references) and its grain (for severity). */
export interface ColumnContext {
  readonly contract?: string;
  readonly grain: ReadonlySet<string>;
}

const FOREIGN = foreignKeyHints('column');

/** Reads one entry of `schema.columns`; cross-column rules are checked by the caller. */
export function readColumn(reader: YamlReader, node: Node | null, path: string, context: ColumnContext = { grain: new Set() }): ColumnSpec | undefined {
  const entries = reader.map(node, path, COLUMN_KEYS, FOREIGN);
  if (!entries) return undefined;
  const get = (key: string, required = false) => reader.field(entries, node, path, key, required);
  const name = readOptional(get('name', true), (n) => reader.string(n, `${path}.name`));
  const typeNode = get('type', true);
  const typeText = readOptional(typeNode, (n) => reader.string(n, `${path}.type`));
  const type = typeText === undefined ? undefined : parseColumnType(typeText);
  if (typeText !== undefined && /^decimal\(\s*\d+$/.test(typeText)) {
    reader.report('invalid_value', `${path}.type`, typeNode, `"${typeText}" is a decimal(p,s) type split at its comma by a { } mapping; quote it, e.g. type: "decimal(12,2)"`);
  } else if (typeText !== undefined && !type) {
    reader.report('invalid_value', `${path}.type`, typeNode, `unknown type "${typeText}"; expected string, int32, int64, float32, float64, decimal(p,s) with 1 <= p <= 38 and s <= p, boolean, date, timestamp, timestamp_ntz or binary`);
  }
  // Keys that do not depend on the type are checked even when the name or type is wrong.
  const required = readOptional(get('required'), (n) => reader.boolean(n, `${path}.required`)) ?? false;
  const unique = readOptional(get('unique'), (n) => reader.boolean(n, `${path}.unique`)) ?? false;
  const description = readOptional(get('description'), (n) => reader.string(n, `${path}.description`));
  const fallback = readOptional(get('default'), (n) => readDefault(reader, n, `${path}.default`));
  const requiredWhen = readRequiredWhen(reader, entries, path);
  const references = readOptional(get('references'), (n) => readReferences(reader, n, `${path}.references`, { contract: context.contract, column: name }));
  const severity = readOptional(get('severity'), (n) => readSeverity(reader, n, `${path}.severity`, COLUMN_SEVERITY_RULES, true));
  if (name === undefined || type === undefined || typeText === undefined) return undefined;
  const column: ColumnSpec = {
    name, type, typeText, required, unique, description, ...(fallback === undefined ? {} : { default: fallback }), ...requiredWhen,
    ...readRules(reader, entries, path, type), ...(references === undefined ? {} : { references }),
  };
  checkDefault(reader, column, entries.get('default')?.value, `${path}.default`, context.grain.has(name));
  const map = severity && withoutUndeclared(reader, `${path}.severity`, severity, undeclaredColumnRules(column, context.grain.has(name), (key) => entries.has(key)), `column "${name}"`);
  return map === undefined ? column : { ...column, severity: map };
}

function readDefault(reader: YamlReader, node: Node | null, path: string): string | number | boolean | undefined {
  const value = reader.scalar(node, path);
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value !== undefined) reader.report('wrong_type', path, node, `expected a single value, found ${describeValue(value)}`);
  return undefined;
}

function readOptional<T>(node: Node | null | undefined, read: (node: Node | null) => T | undefined): T | undefined {
  return node === undefined ? undefined : read(node);
}

function readRequiredWhen(reader: YamlReader, entries: Entries, path: string): Pick<ColumnSpec, 'requiredWhen'> {
  const entry = entries.get('required_when');
  if (!entry) return {};
  const where = `${path}.required_when`;
  const fields = reader.map(entry.value, where, ['column', 'in']);
  if (!fields) return {};
  const column = readOptional(reader.field(fields, entry.value, where, 'column', true), (n) => reader.string(n, `${where}.column`));
  const valuesNode = reader.field(fields, entry.value, where, 'in', true);
  const values = readOptional(valuesNode, (n) => readScalarList(reader, n, `${where}.in`));
  if (column === undefined || values === undefined) return {};
  return { requiredWhen: { column, in: values } };
}

function readScalarList(reader: YamlReader, node: Node | null, path: string): (string | number | boolean)[] | undefined {
  const items = reader.items(node, path);
  if (!items) return undefined;
  if (items.length === 0) {
    reader.report('invalid_value', path, node, 'expected at least one value');
    return undefined;
  }
  const values = items.map((item, i) => {
    const value = reader.scalar(item, `${path}[${i}]`);
    // A whole number a double rounds (9223372036854775807 is held as …808) would never match the value written.
    if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
      reader.report('invalid_value', `${path}[${i}]`, item, `${isScalar(item) && typeof item.source === 'string' ? item.source : value} is past 2^53, which a condition cannot match exactly; list values within ±9007199254740991`);
      return undefined;
    }
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    if (value !== undefined) reader.report('wrong_type', `${path}[${i}]`, item, `expected a string, number or boolean, found ${describeValue(value)}`);
    return undefined;
  });
  return values.every((v) => v !== undefined) ? (values as (string | number | boolean)[]) : undefined;
}

type Rules = Pick<ColumnSpec, 'enum' | 'min' | 'max' | 'exactMin' | 'exactMax' | 'pattern' | 'minLength' | 'maxLength' | 'notInFuture'>;

function readRules(reader: YamlReader, entries: Entries, path: string, type: ColumnType): Rules {
  const applies = (key: string, ok: boolean, expected: string): Node | null | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (ok) return entry.value;
    reader.report('rule_not_for_type', `${path}.${key}`, entry.key, `"${key}" applies to ${expected} columns, not to ${formatColumnType(type)}`);
    return undefined;
  };
  const isString = type.kind === 'string';
  const enumValues = readOptional(applies('enum', isString, 'string'), (n) => reader.stringList(n, `${path}.enum`));
  const pattern = readOptional(applies('pattern', isString, 'string'), (n) => readPattern(reader, n, `${path}.pattern`));
  const minLength = readOptional(applies('min_length', isString, 'string'), (n) => reader.number(n, `${path}.min_length`, { integer: true, min: 0 }));
  const maxLength = readOptional(applies('max_length', isString, 'string'), (n) => reader.number(n, `${path}.max_length`, { integer: true, min: 0 }));
  const ordered = isOrderedType(type);
  const min = readOptional(applies('min', ordered, 'numeric, date or timestamp'), (n) => readBound(reader, n, `${path}.min`, type, 'min'));
  const max = readOptional(applies('max', ordered, 'numeric, date or timestamp'), (n) => readBound(reader, n, `${path}.max`, type, 'max'));
  const notInFuture = readOptional(applies('not_in_future', isTemporalType(type), 'date or timestamp'), (n) => reader.boolean(n, `${path}.not_in_future`));
  if (min !== undefined && max !== undefined && compareOrdered(min.exact, max.exact) > 0) {
    reader.report('min_greater_than_max', `${path}.min`, entries.get('min')?.value, 'min is greater than max');
  }
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    reader.report('min_greater_than_max', `${path}.min_length`, entries.get('min_length')?.value, 'min_length is greater than max_length');
  }
  if (enumValues?.length === 0) reader.report('invalid_value', `${path}.enum`, entries.get('enum')?.value, 'expected at least one allowed value');
  return {
    enum: enumValues, pattern, minLength, maxLength, min: min?.value, max: max?.value, notInFuture: notInFuture ?? false,
    ...(min?.exact instanceof ExactValue ? { exactMin: String(min.exact) } : {}), ...(max?.exact instanceof ExactValue ? { exactMax: String(max.exact) } : {}),
  };
}

/** One budget per file read: all its patterns together are bounded, not just each one. */
const budgets = new WeakMap<YamlReader, PatternBudget>();

export function readPattern(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const pattern = reader.string(node, path, 'a regular expression');
  if (pattern === undefined) return undefined;
  return checkPattern(reader, pattern, path, node) ? pattern : undefined;
}

/**
 * Whether a pattern is accepted, charged to the file's budget; reports `invalid_regex` when not.
 * Checked here against both engines, so the pattern check on a million values cannot fail or hang.
 */
export function checkPattern(reader: YamlReader, pattern: string, path: string, node: Node | null | undefined): boolean {
  let budget = budgets.get(reader);
  if (!budget) budgets.set(reader, (budget = contractPatternBudget()));
  const problem = patternProblem(pattern, budget);
  if (problem === undefined) return true;
  reader.report('invalid_regex', path, node, problem);
  return false;
}

/**
 * A bound exactly as written: a number's digits from the YAML source (`9007199254740993` is no
 * double), a timestamp to the nanosecond; held as the nearest double and, where that is not the
 * bound, as an ExactValue (see exact-bounds.ts). Temporal bounds are epoch milliseconds.
 */
export function readBound(reader: YamlReader, node: Node | null, path: string, type: ColumnType, side: 'min' | 'max'): ReadBound | undefined {
  const bound = isTemporalType(type) ? readTemporalBound(reader, node, path, type) : readNumberBound(reader, node, path, type);
  if (bound === undefined) return undefined;
  const problem = boundRangeProblem(bound.exact, type, side);
  if (problem) reader.report('invalid_value', path, node, problem.message, problem.severity);
  return problem?.severity === 'error' ? undefined : bound;
}

function readNumberBound(reader: YamlReader, node: Node | null, path: string, type: ColumnType): ReadBound | undefined {
  const value = reader.number(node, path);
  if (value === undefined) return undefined;
  // Floats are compared as doubles, the bound as the double a writer's value would round to.
  const source = isScalar(node) && typeof node.source === 'string' ? node.source : undefined;
  const exact = type.kind === 'float32' || type.kind === 'float64' || source === undefined ? undefined : decimalFromText(source);
  return exact === undefined ? { value, exact: value } : { value: Number(exact), exact };
}

function readTemporalBound(reader: YamlReader, node: Node | null, path: string, type: ColumnType): ReadBound | undefined {
  const text = reader.string(node, path, 'an ISO-8601 date or timestamp');
  if (text === undefined) return undefined;
  const exact = parseTemporalExact(text, type.kind === 'date' ? 'date' : 'timestamp');
  if (exact === undefined) reader.report('invalid_value', path, node, `expected an ISO-8601 ${type.kind === 'date' ? 'date (YYYY-MM-DD)' : 'timestamp'}, found "${text}"`);
  return exact === undefined ? undefined : { value: Number(exact), exact };
}
