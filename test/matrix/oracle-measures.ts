import { isTemporalType } from '../../lib/contract/column-type.js';
import type { ColumnSpec } from '../../lib/contract/model.js';
import { sqlIdent, sqlString } from '../writers/index.js';
import type { StoredColumn } from './oracle-schema.js';

/** One count to compute in SQL, reported under `key` (`rule:column`). */
export interface Measure {
  readonly key: string;
  /** A boolean SQL condition on one row; the measure counts the rows where it holds. */
  readonly where: string;
}

/** A contract column the file has with an accepted type: its rules can be counted. */
export interface ReadableColumn {
  readonly spec: ColumnSpec;
  readonly stored: StoredColumn;
}

const isInteger = (stored: StoredColumn) => /INT$/.test(stored.duckType);

/**
 * Written from the contract's documented meaning, not from contract-gate's code: a bound compares
 * a number as a double (an integer column with an integer bound exactly), a date or timestamp by
 * its epoch microseconds; lengths count code points; patterns search (RE2, like `regexp_matches`).
 */
export function valueMeasures(column: ReadableColumn, mustHaveValue: boolean, condition: string | undefined): Measure[] {
  const { spec, stored } = column;
  const c = sqlIdent(spec.name);
  const key = (rule: string) => `${rule}:${spec.name}`;
  const measures: Measure[] = [];
  if (mustHaveValue) measures.push({ key: key('required'), where: `${c} IS NULL` });
  else if (condition) measures.push({ key: key('required'), where: `${c} IS NULL AND (${condition})` });
  if (spec.enum) measures.push({ key: key('enum'), where: `${c} NOT IN (${spec.enum.map((v) => sqlString(String(v))).join(', ')})` });
  const ordered = (bound: number) => (isTemporalType(spec.type)
    ? { value: `epoch_us(${c}::TIMESTAMP)`, bound: `${BigInt(bound) * 1000n}` }
    : isInteger(stored) && Number.isInteger(bound) ? { value: c, bound: String(bound) } : { value: `${c}::DOUBLE`, bound: `CAST(${sqlString(String(bound))} AS DOUBLE)` });
  if (spec.min !== undefined) measures.push({ key: key('min'), where: `${ordered(spec.min).value} < ${ordered(spec.min).bound}` });
  if (spec.max !== undefined) measures.push({ key: key('max'), where: `${ordered(spec.max).value} > ${ordered(spec.max).bound}` });
  if (spec.pattern !== undefined) measures.push({ key: key('pattern'), where: `NOT regexp_matches(${c}, ${sqlString(spec.pattern)})` });
  if (spec.minLength !== undefined || spec.maxLength !== undefined) {
    measures.push({ key: key('length'), where: `length(${c}) < ${spec.minLength ?? 0} OR length(${c}) > ${spec.maxLength ?? 2 ** 53}` });
  }
  return measures;
}

/** `not_in_future` needs the check time; kept apart so `valueMeasures` stays about the data. */
export function futureMeasure(spec: ColumnSpec, now: number): Measure | undefined {
  if (!spec.notInFuture) return undefined;
  return { key: `not_in_future:${spec.name}`, where: `epoch_us(${sqlIdent(spec.name)}::TIMESTAMP) > ${BigInt(now) * 1000n}` };
}

/**
 * The `required_when` condition as SQL, or undefined when it cannot hold (the condition column
 * is not readable). A listed value matches only a column of its own kind: a string a text
 * column, a boolean a boolean column, a number a numeric one.
 */
export function conditionSql(spec: ColumnSpec, readable: ReadonlyMap<string, ReadableColumn>): string | undefined {
  const when = spec.requiredWhen;
  const other = when && readable.get(when.column);
  if (!when || !other) return undefined;
  const kind = other.spec.type.kind;
  const fits = (v: string | number | boolean) => (typeof v === 'string' ? kind === 'string' : typeof v === 'boolean' ? kind === 'boolean' : kind !== 'string' && kind !== 'boolean' && kind !== 'binary');
  const listed = when.in.filter(fits).map((v) => (typeof v === 'string' ? sqlString(v) : String(v)));
  return listed.length === 0 ? 'false' : `${sqlIdent(when.column)} IN (${listed.join(', ')})`;
}
