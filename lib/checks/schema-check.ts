import { formatColumnType } from '../contract/column-type.js';
import { satisfies } from '../formats/parquet-types.js';
import type { FileSchema } from '../formats/table-file.js';
import type { CheckPlan, ColumnPlan } from './check-plan.js';
import { coerceFor, type Coerce } from './coerce-value.js';
import { typeMismatchDetail } from './type-mismatch.js';
import type { ViolationLog } from './violation-log.js';

/** A contract column this file has with a usable type, and how to read its raw values. */
export interface ReadableColumn {
  readonly plan: ColumnPlan;
  /** Absent for typed files, whose decoded values are already the checked representation. */
  readonly coerce?: Coerce;
  /** The file lacks this optional column: every row reads as `plan.absentValue`, nothing is read. */
  readonly absent?: true;
}

/**
 * Compares a file's schema with the contract, logs `missing_column`, `unexpected_column` and
 * `type` (one per file), and returns the columns whose values can be checked. A column the file
 * lacks is `missing_column` only when every row must hold a value (required, or in the grain)
 * and it has no default; any other reads as its default or as nulls (`absent`), so a column a
 * later minor version added never fails the files written before it.
 */
export function checkFileSchema(plan: CheckPlan, schema: FileSchema, file: string, log: ViolationLog): ReadableColumn[] {
  if (schema.kind === 'dynamic') return plan.columns.map((column) => ({ plan: column, coerce: dynamicCoerce(column) }));
  const names = schema.kind === 'text' ? schema.columns : schema.columns.map((c) => c.name);
  logExtraColumns(plan, names, file, log);
  const readable: ReadableColumn[] = [];
  for (const column of plan.columns) {
    const { name } = column.spec;
    if (!names.includes(name)) {
      if (mayBeAbsent(plan, column)) readable.push({ plan: column, absent: true });
      else log.add('missing_column', name, `column ${name} is missing from {count} {file|files}`, { file, row: null, value: null });
    } else if (schema.kind === 'text') {
      readable.push({ plan: column, coerce: coerceFor('text', column.spec.type) });
    } else if (typeMatches(column, schema.columns.find((c) => c.name === name), file, log)) {
      readable.push({ plan: column });
    }
  }
  return readable;
}

/**
 * A column that need not hold a value in every row, that a default fills where it is absent, or
 * whose `required` is only a warning (its rows are then reported, as nulls are, and published).
 */
export function mayBeAbsent(plan: CheckPlan, column: ColumnPlan): boolean {
  const { name } = column.spec;
  const warnOnly = !plan.grain.includes(name) && plan.severityOf('required', name) === 'warn';
  return !column.mustHaveValue || column.absentValue !== null || warnOnly;
}

/** A JSON line without the key reads as the column's default; one with `null` is null. */
function dynamicCoerce(column: ColumnPlan): Coerce {
  const coerce = coerceFor('dynamic', column.spec.type);
  const fallback = column.absentValue;
  return fallback === null ? coerce : (raw) => (raw === undefined ? fallback : coerce(raw));
}

function typeMatches(column: ColumnPlan, stored: Extract<FileSchema, { kind: 'typed' }>['columns'][number] | undefined, file: string, log: ViolationLog): boolean {
  if (!stored) return false;
  if (stored.type.kind !== 'unsupported' && satisfies(column.spec.type, stored.type)) return true;
  const found = stored.type.kind === 'unsupported' ? `${stored.physical} (${stored.type.detail})` : `${stored.physical} (${formatColumnType(stored.type)})`;
  log.add('type', column.spec.name, typeMismatchDetail(column.spec, stored.type), { file, row: null, value: found });
  return false;
}

/** Columns the contract does not name: a finding when the contract rejects extras or warns of them. */
export function logExtraColumns(plan: CheckPlan, names: Iterable<string>, file: string, log: ViolationLog): void {
  if (plan.extraColumns === 'allow') return;
  const known = new Set(plan.columns.map((c) => c.spec.name));
  for (const name of names) {
    if (!known.has(name)) log.add('unexpected_column', name, `column ${name} is not in the contract (extra_columns: ${plan.extraColumns}) but is in {count} {file|files}`, { file, row: null, value: null });
  }
}
