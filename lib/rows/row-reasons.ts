import { GateError } from '../errors.js';
import type { RowReason, WithheldFile } from './withheld-rows.js';

/** The meta fields every rejected row starts with, in order. */
export const META_NAMES = ['_file', '_row', '_rule', '_column', '_message'] as const;

/** A withheld row's reasons as the rejected-rows file states them; several are joined with "; ". */
export interface ReasonFields {
  readonly rule: string;
  /** Null when no reason names a column. */
  readonly column: string | null;
  readonly message: string;
}

export function reasonFields(reasons: readonly RowReason[]): ReasonFields {
  const named = reasons.some((r) => r.column !== undefined);
  return {
    rule: reasons.map((r) => r.rule).join('; '),
    column: named ? reasons.map((r) => r.column ?? '').join('; ') : null,
    message: reasons.map((r) => r.message).join('; '),
  };
}

/** Reasons must come one list per row, or a row would be dead-lettered with another's reasons. */
export function checkReasons(file: WithheldFile): void {
  if (file.reasons.length !== file.rows.length) {
    throw new GateError('bad_arguments', `cannot write the rejected rows of ${file.path}: ${file.rows.length} rows but ${file.reasons.length} lists of reasons`, { context: { path: file.path } });
  }
}

/** A row whose bytes the checker passed over unkept (over the record limit) is listed without them. */
export function unkeptNote(maxRecordBytes: number): string {
  return `(the row is longer than the ${maxRecordBytes}-byte record limit; its bytes are not copied)`;
}
