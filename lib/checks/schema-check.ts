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
}

/**
 * Compares a file's schema with the contract, logs `missing_column`, `unexpected_column` and
 * `type` (one per file), and returns the columns whose values can be checked.
 */
export function checkFileSchema(plan: CheckPlan, schema: FileSchema, file: string, log: ViolationLog): ReadableColumn[] {
  if (schema.kind === 'dynamic') {
    return plan.columns.map((column) => ({ plan: column, coerce: coerceFor('dynamic', column.spec.type) }));
  }
  const names = schema.kind === 'text' ? schema.columns : schema.columns.map((c) => c.name);
  logExtraColumns(plan, names, file, log);
  const readable: ReadableColumn[] = [];
  for (const column of plan.columns) {
    const { name } = column.spec;
    if (!names.includes(name)) {
      log.add('missing_column', name, `column ${name} is missing from {count} {file|files}`, { file, row: null, value: null });
    } else if (schema.kind === 'text') {
      readable.push({ plan: column, coerce: coerceFor('text', column.spec.type) });
    } else if (typeMatches(column, schema.columns.find((c) => c.name === name), file, log)) {
      readable.push({ plan: column });
    }
  }
  return readable;
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
