import { formatTimestamp } from '../contract/temporal.js';
import type { PartitionState } from './partition-state.js';

const MILLIS_PER_HOUR = 3_600_000;

/** The rules that look at the partition as a whole, run once every file has been read. */
export function checkPartitionRules(state: PartitionState): void {
  const { plan, log } = state;
  const { minRows, maxRows } = plan.volume;
  if (minRows !== undefined && state.rows < minRows) {
    log.addTotal('min_rows', undefined, `the partition has ${state.rows} rows; the contract expects at least ${minRows}`, 1, []);
  }
  if (maxRows !== undefined && state.rows > maxRows) {
    log.addTotal('max_rows', undefined, `the partition has ${state.rows} rows; the contract allows at most ${maxRows}`, 1, []);
  }
  checkFreshness(state);
}

function checkFreshness(state: PartitionState): void {
  const { freshness, now } = state.plan;
  if (!freshness || !state.newest) return;
  const lagHours = (now - state.newest.value) / MILLIS_PER_HOUR;
  if (lagHours <= freshness.maxLagHours) return;
  const detail = `the newest ${freshness.column} is ${formatTimestamp(state.newest.value)}, ${lagHours.toFixed(1)} hours before ${formatTimestamp(now)}; the contract allows ${freshness.maxLagHours}`;
  state.log.addTotal('freshness', freshness.column, detail, 1, [state.newest.sample]);
}
