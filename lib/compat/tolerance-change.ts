import type { RowTolerance } from '../contract/model.js';
import { change, loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';

/**
 * `on_violation` decides what a batch with rows breaking row-level rules becomes: without it the
 * batch is quarantined whole; within the tolerance its invalid rows are withheld and the rest is
 * published. No invalid row reaches a reader either way, so a tolerance never makes data invalid;
 * what it changes is which batches are published, and how complete they are.
 *
 * A smaller tolerance, or none, quarantines batches the old version published: consumers of what
 * the old version served are no longer served, which is breaking in every mode (the issue's
 * "tightening a tolerance is breaking under backward").
 *
 * A larger one, or a new one, publishes batches the old version stopped, without their invalid
 * rows. `backward` promises only that what the old version accepted still is: non-breaking there.
 * `forward` and `full` also promise old readers that new data is what the old version would
 * publish, and that version published a partition whole or not at all; a partition with rows
 * withheld breaks sums and counts they trust, so there it is breaking, like any loosening.
 */
export function toleranceChange(old: RowTolerance | undefined, next: RowTolerance | undefined, mode: CompatMode): RawChange[] {
  const [from, to] = [normal(old), normal(next)];
  if (describeTolerance(from) === describeTolerance(to)) return [];
  const text = `on_violation ${describeTolerance(from)} → ${describeTolerance(to)}`;
  const tighter = to === undefined || (from !== undefined && (kind(from) !== kind(to) || amount(to) < amount(from)));
  if (tighter) {
    const why = from && to && kind(from) !== kind(to)
      ? 'a share of the batch and a number of rows cannot be compared: for some batch sizes fewer rows may be withheld, and a batch once published without them is now quarantined whole'
      : 'a batch whose invalid rows the old version withheld may now be quarantined whole, so data consumers were served is stopped';
    return [change('tolerance_tightened', null, 'breaking', `${text}: ${why}`)];
  }
  const partial = 'a batch the old version quarantined whole may now be published without its invalid rows, so consumers may get partial partitions (the withheld rows are dead-lettered)';
  const why = loosenedClass(mode) === 'breaking' ? `${partial}; readers of the old version, which publishes a partition whole or not at all, may now get one with rows missing (compat.mode ${mode})` : partial;
  return [change('tolerance_loosened', null, loosenedClass(mode), `${text}: ${why}`)];
}

/** A tolerance of nothing withholds nothing: the same as none. */
function normal(tolerance: RowTolerance | undefined): RowTolerance | undefined {
  return tolerance === undefined || amount(tolerance) === 0 ? undefined : tolerance;
}

function kind(tolerance: RowTolerance): 'share' | 'rows' {
  return 'rowTolerance' in tolerance ? 'share' : 'rows';
}

function amount(tolerance: RowTolerance): number {
  return 'rowTolerance' in tolerance ? tolerance.rowTolerance : tolerance.maxInvalidRows;
}

/** In the contract's own words: `row_tolerance 0.02`, `max_invalid_rows 100`, `none`. */
function describeTolerance(tolerance: RowTolerance | undefined): string {
  if (!tolerance) return 'none';
  return 'rowTolerance' in tolerance ? `row_tolerance ${tolerance.rowTolerance}` : `max_invalid_rows ${tolerance.maxInvalidRows}`;
}
