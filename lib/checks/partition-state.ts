import type { CheckPlan } from './check-plan.js';
import { KeyHashes } from './key-hashes.js';
import type { RuleId, Sample } from '../report/report.js';
import { InvalidRows, rowMessage } from './invalid-rows.js';
import { ViolationLog } from './violation-log.js';
import { below, emptySpans, widenSpan, type Ordered, type ValueSpan } from './observed-ranges.js';
import type { ReadStats } from '../formats/prefetched-source.js';
import type { PendingReferenceRow } from './reference-rows.js';

/** A set of columns whose combined values must not repeat: the grain, or one unique column. */
export interface KeyColumns {
  readonly rule: 'grain' | 'unique';
  readonly columns: readonly string[];
}

/** A key set and the hashes of its keys, one per scanned row. */
export interface KeySet extends KeyColumns {
  readonly hashes: KeyHashes;
}

/** The plan's key sets, in the order every step numbers them: the grain first, then unique columns. */
export function keySetsFor(plan: CheckPlan): KeyColumns[] {
  const keySets: KeyColumns[] = [];
  if (plan.grain.length > 0) keySets.push({ rule: 'grain', columns: plan.grain });
  for (const { spec } of plan.columns) {
    // A unique column that is the whole grain is already checked by the grain rule.
    const isWholeGrain = plan.grain.length === 1 && plan.grain[0] === spec.name;
    if (spec.unique && !isWholeGrain) keySets.push({ rule: 'unique', columns: [spec.name] });
  }
  return keySets;
}

/** Everything a run accumulates across the files of one partition. */
export class PartitionState {
  readonly log: ViolationLog;
  readonly keySets: KeySet[];
  /** Rows counted for the report: read and not unreadable. */
  rows = 0;
  /** Rows scanned, unreadable ones included: the ordinal of the next row in the key hashes. */
  scanned = 0;
  /** The ordinal of each file's first row. */
  readonly fileStarts: number[] = [];
  newest: { value: Ordered; sample: Sample } | undefined;
  /** Per column with a range rule (min, max, not_in_future): the least and greatest value seen, for `Report.observed`. */
  readonly spans: ReadonlyMap<string, ValueSpan>;
  /** Bytes and requests fetched from storage, across every file and pass. */
  readonly reads: ReadStats = { bytes: 0, requests: 0 };
  /** With a row tolerance: the rows of this file that broke a row-level error rule. */
  readonly invalid: InvalidRows | undefined;
  /** Per contract column, the files that lack it (read as its default or as nulls), for the report's notes. */
  readonly absent = new Map<string, string[]>();
  /** Indices of the contract's reference rows whose key some row had (for `required` ones). */
  readonly referenceRowsSeen = new Set<number>();
  /**
   * Reference row hits by a key hashed from the bytes, by file index (a slice's own under -1),
   * waiting to be confirmed by value (reference-rows.ts).
   */
  readonly referencePending = new Map<number, PendingReferenceRow[]>();

  constructor(readonly plan: CheckPlan) {
    this.log = new ViolationLog(plan.columns.map((c) => c.spec.name), plan.severityOf);
    this.keySets = keySetsFor(plan).map((keySet) => ({ ...keySet, hashes: new KeyHashes() }));
    this.invalid = plan.tolerance ? new InvalidRows() : undefined;
    this.spans = emptySpans(plan);
  }

  /** A row-level finding: logged, and with a row tolerance, its row remembered for withholding (warnings are not withheld). */
  rowFailed(rule: RuleId, column: string | undefined, detail: string, sample: Sample): void {
    this.log.add(rule, column, detail, sample);
    if (this.invalid && sample.row !== null && this.plan.severityOf(rule, column) === 'error') {
      this.invalid.record(sample.row, { rule, ...(column === undefined ? {} : { column }), message: rowMessage(detail) });
    }
  }

  observeAbsent(column: string, file: string): void {
    this.absent.set(column, [...(this.absent.get(column) ?? []), file]);
  }

  observeNewest(value: Ordered, sample: Sample): void {
    if (!this.newest || below(this.newest.value, value)) this.newest = { value, sample };
  }

  /** Values [least, greatest] of `column` were seen; a column without a range rule keeps no span. */
  observeSpan(column: string, least: Ordered, greatest: Ordered): void {
    const span = this.spans.get(column);
    if (span) widenSpan(span, least, greatest);
  }
}
