import type { Node } from 'yaml';
import { isTemporalType, type ColumnType } from '../contract/column-type.js';
import type { ColumnSpec } from '../contract/model.js';
import { checkPattern } from '../contract/read-column.js';
import { describeValue, type YamlReader } from '../contract/yaml-reader.js';
import { readCustom, type CustomValues } from './custom-properties.js';
import { notEnforced } from './odcs-warnings.js';
import type { PropertyQuality } from './read-quality.js';
import type { OptionRules } from './read-type-options.js';

export interface QualityRules {
  readonly required: boolean;
  readonly unique: boolean;
  readonly enum?: readonly string[];
  readonly pattern?: string;
}

/** Folds the quality metrics into the column's rules; `options` may hold a pattern already. */
export function readQualityRules(reader: YamlReader, type: ColumnType, options: OptionRules, quality: PropertyQuality): QualityRules {
  const isString = type.kind === 'string';
  let values: string[] | undefined;
  if (quality.enum && !isString) {
    notEnforced(reader, quality.enum.path, quality.enum.node, 'validValues', `allowed values are checked on string columns, and this column is ${type.kind}`);
  } else if (quality.enum) {
    values = enumValues(reader, quality.enum);
  }
  let pattern = options.pattern;
  const extra = quality.pattern;
  if (extra && !isString) {
    reader.report('rule_not_for_type', extra.path, extra.node, `a pattern applies to string columns, not to ${type.kind}`);
  } else if (extra && pattern !== undefined && extra.text !== pattern) {
    notEnforced(reader, extra.path, extra.node, 'a second pattern', 'the column has a pattern in logicalTypeOptions already, and one pattern is checked per column');
  } else if (extra && (extra.text === pattern || validRegex(reader, extra))) {
    // The same text as logicalTypeOptions.pattern was checked (and charged to the budget) there.
    pattern = extra.text;
  }
  return { required: quality.required ?? false, unique: quality.unique ?? false, enum: values, pattern };
}

/** A null among valid values says nulls are fine, which is `required`'s business, not the enum's. */
function enumValues(reader: YamlReader, listed: NonNullable<PropertyQuality['enum']>): string[] | undefined {
  const values = listed.values.filter((v) => v !== null);
  const wrong = values.find((v) => typeof v !== 'string');
  if (wrong !== undefined) {
    reader.report('wrong_type', listed.path, listed.node, `allowed values of a string column must be strings, found ${describeValue(wrong)}`);
    return undefined;
  }
  if (values.length === 0) {
    reader.report('invalid_value', listed.path, listed.node, 'expected at least one allowed value other than null');
    return undefined;
  }
  return values as string[];
}

/** The same acceptance as a native contract: a pattern must be safe to run on every value. */
function validRegex(reader: YamlReader, pattern: NonNullable<PropertyQuality['pattern']>): boolean {
  return checkPattern(reader, pattern.text, pattern.path, pattern.node);
}

type Extras = Pick<ColumnSpec, 'requiredWhen' | 'notInFuture' | 'default'>;

/** The property's `contractGate.*` rules, in the native contract's shape. */
export function readPropertyExtras(reader: YamlReader, custom: CustomValues, type: ColumnType): { extras: Extras; requiredWhen?: { column: string; node: Node | null; path: string } } {
  const notInFuture = readCustom(custom, 'notInFuture', (n, p) => {
    const value = reader.boolean(n, p);
    if (value && !isTemporalType(type)) reader.report('rule_not_for_type', p, n, `notInFuture applies to date or timestamp columns, not to ${type.kind}`);
    return value && isTemporalType(type);
  }) ?? false;
  const fallback = readCustom(custom, 'default', (n, p) => {
    const value = reader.scalar(n, p);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    if (value !== undefined) reader.report('wrong_type', p, n, `expected a single value, found ${describeValue(value)}`);
    return undefined;
  });
  const when = readCustom(custom, 'requiredWhen', (n, p) => readRequiredWhen(reader, n, p));
  const extras: Extras = { notInFuture, ...(fallback === undefined ? {} : { default: fallback }), ...(when ? { requiredWhen: when.rule } : {}) };
  return when ? { extras, requiredWhen: when.ref } : { extras };
}

type RequiredWhen = NonNullable<ColumnSpec['requiredWhen']>;

function readRequiredWhen(reader: YamlReader, node: Node | null, path: string): { rule: RequiredWhen; ref: { column: string; node: Node | null; path: string } } | undefined {
  const fields = reader.map(node, path, ['column', 'in']);
  if (!fields) return undefined;
  const columnNode = reader.field(fields, node, path, 'column', true);
  const column = columnNode === undefined ? undefined : reader.string(columnNode, `${path}.column`);
  const inNode = reader.field(fields, node, path, 'in', true);
  const items = inNode === undefined ? undefined : reader.items(inNode, `${path}.in`);
  if (items?.length === 0) reader.report('invalid_value', `${path}.in`, inNode, 'expected at least one value');
  const values = items?.map((item, i) => {
    const value = reader.scalar(item, `${path}.in[${i}]`);
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
    if (value !== undefined) reader.report('wrong_type', `${path}.in[${i}]`, item, `expected a string, number or boolean, found ${describeValue(value)}`);
    return undefined;
  });
  if (column === undefined || !values?.length || values.some((v) => v === undefined)) return undefined;
  return { rule: { column, in: values as RequiredWhen['in'] }, ref: { column, node: columnNode ?? null, path: `${path}.column` } };
}
