import { formatTimestamp } from '../contract/temporal.js';
import type { PartitionState } from './partition-state.js';
import { below } from './observed-ranges.js';
import { checkVolumeHistory } from './volume-history.js';

const MILLIS_PER_HOUR = 3_600_000;

/** The rules that look at the partition as a whole, run once every file has been read. Returns notes for the report. */
export function checkPartitionRules(state: PartitionState): string[] {
  const { plan, log } = state;
  const { minRows, maxRows } = plan.volume;
  if (minRows !== undefined && state.rows < minRows) {
    log.addTotal('min_rows', undefined, `the partition has ${state.rows} rows; the contract expects at least ${minRows}`, 1, []);
  }
  if (maxRows !== undefined && state.rows > maxRows) {
    log.addTotal('max_rows', undefined, `the partition has ${state.rows} rows; the contract allows at most ${maxRows}`, 1, []);
  }
  checkFreshness(state);
  return checkVolumeHistory(state);
}

/** Past max_lag_hours the contract's severity for freshness; past only warn_lag_hours, a warning. */
function checkFreshness(state: PartitionState): void {
  const { freshness, judgedAt } = state.plan;
  if (!freshness || !state.newest) return;
  const now = judgedAt.at;
  const newest = state.newest.value;
  // Past the limit exactly: a newest value a fraction of a millisecond before the limit is late.
  const pastLimit = (hours: number | undefined) => hours !== undefined && below(newest, now - hours * MILLIS_PER_HOUR);
  const { maxLagHours, warnLagHours } = freshness;
  const late = pastLimit(maxLagHours);
  if (!late && !pastLimit(warnLagHours)) return;
  const lagHours = (now - Number(newest)) / MILLIS_PER_HOUR;
  const limit = late ? `the contract allows ${maxLagHours}` : `the contract warns past ${warnLagHours}`;
  const detail = `the newest ${freshness.column} is ${formatTimestamp(Number(newest))}, ${lagHours.toFixed(1)} hours before ${judgedAt.text}; ${limit}`;
  state.log.addTotal('freshness', freshness.column, detail, 1, [state.newest.sample], late ? undefined : 'warn');
}
