import type { PartitionState } from './partition-state.js';

/** Fewer published partitions than this and the median says too little: the rule is skipped. */
export const MIN_HISTORY = 3;

/**
 * `volume_vs_history`: the partition's rows against the median of the last `lookback`
 * published partitions. Catches the load that succeeded and wrote nothing useful, which no rule
 * on single values can see. Returns the report's notes (a skipped rule says why).
 */
export function checkVolumeHistory(state: PartitionState): string[] {
  const history = state.plan.history;
  if (!history) return [];
  const { rule, facts } = history;
  if (!facts) return ['volume_vs_history was not checked: no lake was given to read the published history from'];
  const counts = facts.partitions.slice(0, rule.lookback).map((p) => p.rows);
  if (counts.length < MIN_HISTORY) {
    return [`volume_vs_history was skipped: ${counts.length} published ${counts.length === 1 ? 'partition' : 'partitions'} under ${facts.source}; it needs at least ${MIN_HISTORY}`];
  }
  const median = medianOf(counts);
  const ratio = median === 0 ? (state.rows === 0 ? 1 : Infinity) : state.rows / median;
  const low = rule.minRatio !== undefined && ratio < rule.minRatio;
  const high = rule.maxRatio !== undefined && ratio > rule.maxRatio;
  if (!low && !high) return [];
  const bound = low ? `at least ${rule.minRatio}` : `at most ${rule.maxRatio}`;
  const detail = `the partition has ${state.rows} rows, ${formatRatio(ratio)} times the median ${median} of the last ${counts.length} published partitions; the contract expects ${bound} times`;
  const samples = facts.partitions.slice(0, counts.length).map((p) => ({ file: p.partition, row: null, value: p.rows }));
  state.log.addTotal('volume_vs_history', undefined, detail, 1, samples);
  return [];
}

export function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function formatRatio(ratio: number): string {
  return Number.isFinite(ratio) ? String(Number(ratio.toFixed(3))) : 'infinitely many';
}
