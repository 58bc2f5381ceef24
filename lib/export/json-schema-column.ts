import { formatColumnType, isTemporalType } from '../contract/column-type.js';
import type { ColumnSeverityRule, ColumnSpec } from '../contract/model.js';
import { exactDigits, exactNumber, INT32_RANGE, INT64_RANGE, integerBound } from './exact-number.js';
import type { JsonSchema } from './json-schema.js';
import { valueSchema, type Branch, type Checks, type ValueSchema } from './json-value-schema.js';
import { formatBound, referencePinNote, weighedRuleNotes } from './rule-notes.js';

const WARN = ' (severity warn: reported, not blocking)';

/**
 * The schema of one column's value. A column the gate does not require may be absent or null,
 * so null joins its types and, because `enum` is checked on its own, its enum as well. What the
 * schema cannot assert is said in `$comment`, and in the contract's own terms under
 * `x-contract-gate`, from which `import --from jsonschema` reads the contract back.
 */
export function columnSchema(column: ColumnSpec, mustHaveValue: boolean): JsonSchema {
  const checks: Checks = (rule) => column.severity?.[rule] !== 'warn';
  const required = mustHaveValue && checks('required');
  const value = valueSchema(column, checks);
  const clauses = engineClauses(column, value, checks, mustHaveValue);
  const description = column.description?.trim();
  return {
    ...(description ? { description } : {}),
    ...(clauses.length === 0 ? {} : { $comment: `contract-gate also checks: ${clauses.join('; ')}.` }),
    ...valueKeywords(value, required),
    ...(column.default === undefined ? {} : { default: column.default }),
    'x-contract-gate': contractTerms(column, checks, value),
  };
}

/**
 * One JSON type is written inline (`type: [string, "null"]`, as hand-written schemas do), several
 * as anyOf branches: strict validators (ajv's strictTypes) refuse a union of types whose keywords
 * differ. An enum takes null too when null is allowed, since `enum` is checked on its own.
 */
function valueKeywords(value: ValueSchema, required: boolean): JsonSchema {
  const notNull: JsonSchema = required ? { not: { type: 'null' } } : {};
  if (value.branches === undefined) {
    const rules = value.untyped ?? {};
    return Object.keys(rules).length === 0 ? notNull : { ...notNull, anyOf: [{ type: 'string', ...rules }, { not: { type: 'string' } }] };
  }
  if (value.branches.length === 1) {
    const [{ type, keywords }] = value.branches as [Branch];
    const { enum: values, ...rest } = keywords;
    return { type: required ? type : [type, 'null'], ...rest, ...(values ? { enum: required ? values : [...values, null] } : {}) };
  }
  const branches: JsonSchema[] = value.branches.map(({ type, keywords }) => ({ type, ...keywords }));
  return { anyOf: required ? branches : [...branches, { type: 'null' }] };
}

/** The rules left to the gate, as clauses; a rule at warn is marked, since it blocks nothing. */
function engineClauses(column: ColumnSpec, value: ValueSchema, checks: Checks, mustHaveValue: boolean): string[] {
  const warned = (rule: ColumnSeverityRule) => !checks(rule);
  const typed = value.branches !== undefined;
  return [
    ...(mustHaveValue && warned('required') ? [`a value in every row${WARN}`] : []),
    ...value.engineChecks,
    ...rangeClauses(column, checks, typed),
    ...(column.enum && (warned('enum') || !typed) ? [`one of ${column.enum.join(', ')}${warned('enum') ? WARN : ''}`] : []),
    ...(warned('pattern') ? weighedRuleNotes(column, ['pattern']) : []),
    ...(warned('length') ? weighedRuleNotes(column, ['length']) : []),
    ...(warned('required_when') ? weighedRuleNotes(column, ['requiredWhen']) : []),
    ...weighedRuleNotes(column, ['notInFuture', 'unique']),
    ...referenceClauses(column, warned('references')),
  ];
}

/** Temporal bounds are all the gate's (JSON Schema compares no dates); numeric ones only where they warn. */
function rangeClauses(column: ColumnSpec, checks: Checks, typed: boolean): string[] {
  if (isTemporalType(column.type) || !typed) return weighedRuleNotes(column, ['range']);
  const side = (value: number | undefined, rule: 'min' | 'max', words: string) => (value !== undefined && !checks(rule) ? [`${words} ${formatBound(column, rule)}${WARN}`] : []);
  return [...side(column.min, 'min', 'at least'), ...side(column.max, 'max', 'at most')];
}

function referenceClauses(column: ColumnSpec, warned: boolean): string[] {
  const reference = column.references;
  if (!reference) return [];
  return [`${referencePinNote(column) ?? `values exist in ${reference.contract}.${reference.column}`}${warned ? WARN : ''}`];
}

/**
 * The column's rules as the native contract writes them, where the keywords do not carry them
 * exactly: its type, its bounds (the keywords hold the type's limits too), the rules of many
 * rows, severities, and any rule the schema leaves unasserted because it only warns.
 */
function contractTerms(column: ColumnSpec, checks: Checks, value: ValueSchema): Record<string, unknown> {
  const unasserted = (rule: ColumnSeverityRule) => !checks(rule) || (rule === 'enum' && value.branches === undefined);
  const range = column.type.kind === 'int32' ? INT32_RANGE : column.type.kind === 'int64' ? INT64_RANGE : undefined;
  const bound = (side: 'min' | 'max', bound: number) => (isTemporalType(column.type) ? formatBound(column, side) : range ? integerBound(bound, range) : exactNumber(bound));
  const terms: Record<string, unknown> = { type: formatColumnType(column.type) };
  if (column.required && !checks('required')) terms.required = true;
  if (column.requiredWhen && !checks('required_when')) terms.required_when = { column: column.requiredWhen.column, in: [...column.requiredWhen.in] };
  if (column.enum && unasserted('enum')) terms.enum = [...column.enum];
  if (column.min !== undefined) terms.min = (isTemporalType(column.type) ? undefined : exactDigits(column, 'min', range)) ?? bound('min', column.min);
  if (column.max !== undefined) terms.max = (isTemporalType(column.type) ? undefined : exactDigits(column, 'max', range)) ?? bound('max', column.max);
  if (column.pattern !== undefined && unasserted('pattern')) terms.pattern = column.pattern;
  if (column.minLength !== undefined && unasserted('length')) terms.min_length = column.minLength;
  if (column.maxLength !== undefined && unasserted('length')) terms.max_length = column.maxLength;
  if (column.unique) terms.unique = true;
  if (column.notInFuture) terms.not_in_future = true;
  if (column.references) terms.references = { ...column.references };
  if (column.severity) terms.severity = { ...column.severity };
  return terms;
}
