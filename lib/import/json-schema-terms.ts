import type { Node } from 'yaml';
import { parseColumnType } from '../contract/column-type.js';
import { COLUMN_SEVERITY_RULES } from '../contract/model.js';
import { ColumnRules } from './column-rules.js';
import type { DraftColumn } from './import-draft.js';
import type { ImportContext } from './legacy-shape.js';

/** The extension keyword `export --to jsonschema` writes the contract's own terms under. */
export const TERMS = 'x-contract-gate';

/** The column type a property's terms name, when it was written by the export. */
export function exportedType(c: ImportContext, node: Node | null | undefined): string | undefined {
  const text = c.nodes.text(c.nodes.child(c.nodes.child(node, TERMS), 'type'));
  return text !== undefined && parseColumnType(text) ? text : undefined;
}

/**
 * A property the export wrote: its type is the terms' type, and its keywords are that type's
 * JSON forms (patterns of digits, the type's limits), which are no rules of the column. The
 * rules are the string keywords of a string column, the required list, and the terms.
 */
export function readExportedProperty(c: ImportContext, name: string, node: Node | null | undefined, listed: boolean): DraftColumn {
  const { nodes, log } = c;
  const type = exportedType(c, node)!;
  const terms = nodes.child(node, TERMS);
  const column: DraftColumn = { name, type };
  if (listed || refusesNull(c, node) || nodes.value(nodes.child(terms, 'required')) === true) column.required = true;
  const description = nodes.text(nodes.child(node, 'description'));
  if (description) column.description = description;
  const index = c.draft.schema.columns.length;
  const path = `properties.${name}`;
  const rules = new ColumnRules(log, column, index, path);
  if (type === 'string') readStringKeywords(c, rules, stringSchema(c, node), path);
  readTerms(c, rules, column, terms, `${path}.${TERMS}`);
  const fallback = nodes.value(nodes.child(node, 'default'));
  if (typeof fallback === 'string' || typeof fallback === 'number' || typeof fallback === 'boolean') column.default = fallback;
  return column;
}

/** The schema holding a string column's keywords: the property, or its string branch when the type only warns. */
function stringSchema(c: ImportContext, node: Node | null | undefined): Node | null | undefined {
  const branch = c.nodes.items(c.nodes.child(node, 'anyOf')).find((b) => c.nodes.text(c.nodes.child(b, 'type')) === 'string');
  return branch ?? node;
}

function readStringKeywords(c: ImportContext, rules: ColumnRules, schema: Node | null | undefined, path: string): void {
  const { nodes } = c;
  const at = (key: string) => nodes.child(schema, key);
  const values = nodes.items(at('enum')).map((item) => nodes.value(item)).filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
  if (values.length > 0) rules.enumOf(values, `${path}.enum`, at('enum'));
  const pattern = nodes.text(at('pattern'));
  if (pattern !== undefined) rules.pattern(pattern, `${path}.pattern`, at('pattern'));
  for (const [key, native] of [['minLength', 'min_length'], ['maxLength', 'max_length']] as const) {
    const length = nodes.number(at(key));
    if (length !== undefined) rules.length(native, length, `${path}.${key}`, at(key));
  }
}

/** The rules the keywords do not carry: bounds in the contract's terms, rules of many rows, severities, rules at warn. */
function readTerms(c: ImportContext, rules: ColumnRules, column: DraftColumn, terms: Node | null | undefined, path: string): void {
  const { nodes } = c;
  const at = (key: string) => nodes.child(terms, key);
  const when = at('required_when');
  const trigger = nodes.text(nodes.child(when, 'column'));
  const values = nodes.items(nodes.child(when, 'in')).map((item) => nodes.value(item)).filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v));
  if (trigger !== undefined && values.length > 0) rules.requiredWhen(trigger, values);
  readStringKeywords(c, rules, terms, path);
  const [minLength, maxLength] = [nodes.number(at('min_length')), nodes.number(at('max_length'))];
  if (minLength !== undefined) rules.length('min_length', minLength, `${path}.min_length`, at('min_length'));
  if (maxLength !== undefined) rules.length('max_length', maxLength, `${path}.max_length`, at('max_length'));
  for (const which of ['min', 'max'] as const) {
    const bound = nodes.bound(at(which));
    if (bound !== undefined) rules.bound(which, bound, `${path}.${which}`, at(which));
  }
  if (nodes.value(at('unique')) === true) column.unique = true;
  if (nodes.value(at('not_in_future')) === true) rules.notInFuture(`${path}.not_in_future`, at('not_in_future'));
  const reference = at('references');
  const contract = nodes.text(nodes.child(reference, 'contract'));
  const referenced = nodes.text(nodes.child(reference, 'column'));
  const major = nodes.number(nodes.child(reference, 'major'));
  const partition = nodes.text(nodes.child(reference, 'partition'));
  if (contract !== undefined && referenced !== undefined) column.references = { contract, column: referenced, ...(major === undefined ? {} : { major }), ...(partition === undefined ? {} : { partition }) };
  const severity = Object.fromEntries(nodes.keys(at('severity')).filter((rule) => nodes.text(nodes.child(at('severity'), rule)) === 'warn').map((rule) => [rule, 'warn' as const]));
  if (Object.keys(severity).length > 0) column.severity = severity;
}

/** Whether the property's schema refuses null: a type without null, anyOf without a null branch, or `not: { type: null }`. */
function refusesNull(c: ImportContext, node: Node | null | undefined): boolean {
  const { nodes } = c;
  const types = nodes.strings(nodes.child(node, 'type'));
  const branches = nodes.items(nodes.child(node, 'anyOf'));
  if (nodes.text(nodes.child(nodes.child(node, 'not'), 'type')) === 'null') return true;
  if (types) return !types.includes('null');
  return branches.length > 0 && !branches.some((b) => nodes.text(nodes.child(b, 'type')) === 'null');
}

/**
 * A column's severities, only for rules it declares: the loader warns about any other, and a
 * column written `severity: warn` was read as every rule at warn, declared or not.
 */
export function declaredSeverity(column: DraftColumn, grain: readonly string[]): void {
  if (!column.severity) return;
  const declared: Record<(typeof COLUMN_SEVERITY_RULES)[number], boolean> = {
    required: column.required === true || grain.includes(column.name), required_when: column.required_when !== undefined, type: true,
    enum: column.enum !== undefined, min: column.min !== undefined, max: column.max !== undefined, pattern: column.pattern !== undefined,
    length: column.min_length !== undefined || column.max_length !== undefined, not_in_future: column.not_in_future === true,
    unique: column.unique === true, references: column.references !== undefined,
  };
  const kept = Object.entries(column.severity).filter(([rule]) => declared[rule as keyof typeof declared]);
  column.severity = kept.length > 0 ? Object.fromEntries(kept) : undefined;
  if (column.severity === undefined) delete column.severity;
}

/** The dataset's terms: name, version, grain, format, partition, how extra columns are treated, and the grain's severity. */
export function readDatasetTerms(c: ImportContext, root: Node | null | undefined): void {
  const { nodes, draft } = c;
  const terms = nodes.child(root, TERMS);
  if (terms === undefined) return;
  const at = (key: string) => nodes.child(terms, key);
  const name = nodes.text(at('contract'));
  if (name !== undefined) draft.name = name;
  const version = nodes.text(at('version'));
  if (version !== undefined && /^\d+\.\d+\.\d+$/.test(version)) draft.version = version;
  const grain = nodes.strings(at('grain'));
  if (grain && grain.length > 0) draft.schema.grain = grain;
  const format = nodes.text(at('format'));
  if (format === 'parquet' || format === 'csv' || format === 'jsonl') draft.produces.format = format;
  const partition = nodes.text(at('partition'));
  if (partition !== undefined) draft.produces.partition = partition;
  const extra = nodes.text(at('extra_columns'));
  if (extra === 'allow' || extra === 'warn' || extra === 'reject') draft.schema.extra_columns = extra;
  // extra_columns is written as it acts (`warn`), so only the grain's severity is left to say.
  if (nodes.text(nodes.child(at('severity'), 'grain')) === 'warn') draft.schema.severity = { grain: 'warn' };
}

/**
 * `required_when` as the export writes it, an allOf of if/then: if the trigger column holds one
 * of the values, then the column is not null. Any other allOf item is not a rule of ours.
 */
export function readConditions(c: ImportContext, root: Node | null | undefined): void {
  const { nodes, log, draft } = c;
  nodes.items(nodes.child(root, 'allOf')).forEach((item, i) => {
    const ifProperties = nodes.child(nodes.child(item, 'if'), 'properties');
    const thenProperties = nodes.child(nodes.child(item, 'then'), 'properties');
    const [trigger] = nodes.keys(ifProperties);
    const [target] = nodes.keys(thenProperties);
    const values = nodes.items(nodes.child(nodes.child(ifProperties, trigger ?? ''), 'enum')).map((v) => nodes.value(v));
    const index = draft.schema.columns.findIndex((column) => column.name === target);
    const column = draft.schema.columns[index];
    const notNull = nodes.text(nodes.child(nodes.child(nodes.child(thenProperties, target ?? ''), 'not'), 'type')) === 'null';
    if (trigger !== undefined && column && notNull && values.length > 0 && values.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) {
      new ColumnRules(log, column, index, `allOf[${i}]`).requiredWhen(trigger, values as (string | number | boolean)[]);
    } else {
      log.notEnforced(`allOf[${i}]`, item, { key: 'schema' }, `schema condition allOf[${i}] (only "if <column> is one of [...] then <column> is not null" is read, as required_when)`);
    }
  });
}
