import type { RuleId } from '../report/report.js';
import { renderDetail } from './violation-log.js';

/**
 * The most rows a run withholds under a row tolerance. Their numbers and reasons travel in the
 * decision record (about 10 bytes a row), so a batch with more invalid rows is quarantined whole.
 */
export const MAX_WITHHELD_ROWS = 100_000;

/** Why a row is withheld: one rule it broke. */
export interface RowReason {
  readonly rule: RuleId;
  readonly column?: string;
  readonly message: string;
}

/** One file's invalid rows as plain data: row numbers ascending, each with the reasons it broke. */
export interface InvalidRowList {
  readonly rows: number[];
  readonly reasons: RowReason[][];
  /** More distinct rows broke rules than MAX_WITHHELD_ROWS: the list is incomplete. */
  readonly overflow: boolean;
}

/**
 * The rows of one file (or slice of it) that broke a row-level error rule, recorded only when
 * the contract has a row tolerance. Memory is bounded: past MAX_WITHHELD_ROWS rows it only
 * remembers that there were more.
 */
export class InvalidRows {
  private readonly byRow = new Map<number, RowReason[]>();
  private overflow = false;

  record(row: number, reason: RowReason): void {
    const reasons = this.byRow.get(row);
    if (reasons) {
      if (reasons.length < 3 && !reasons.some((r) => r.rule === reason.rule && r.column === reason.column)) reasons.push(reason);
    } else if (this.byRow.size < MAX_WITHHELD_ROWS) {
      this.byRow.set(row, [reason]);
    } else {
      this.overflow = true;
    }
  }

  list(): InvalidRowList {
    const rows = [...this.byRow.keys()].sort((a, b) => a - b);
    return { rows, reasons: rows.map((row) => this.byRow.get(row)!), overflow: this.overflow };
  }
}

/** A row's message: the rule's report message as for one row, e.g. "status has a value not in [a, b]". */
export function rowMessage(detail: string): string {
  return renderDetail(detail, 1).replace(/^1 row (of )?/, '');
}
