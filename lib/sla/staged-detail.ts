import type { GateLayout } from '../gate/gate-layout.js';

/** What staging holds of one partition: its files (the marker not counted) and whether `_READY` is there. */
export interface StagedCount {
  readonly files: number;
  readonly marker: boolean;
}

/**
 * The sentence a page or a probe notice says about a partition's staging prefix, or undefined
 * when nothing is there. A marker means the gate has the drop and has not finished; files
 * without one mean the producer's upload stopped before its last step.
 */
export function stagedDetail(layout: GateLayout, prefix: string, staged: StagedCount): string | undefined {
  if (staged.marker) return `a ${layout.marker} marker sits in ${prefix}: the gate has not finished with this drop (look at the validate function's errors and its dead-letter queue)`;
  if (staged.files > 0) return `${staged.files} ${staged.files === 1 ? 'file sits' : 'files sit'} in ${prefix} without a ${layout.marker} marker: the producer's upload never completed`;
  return undefined;
}
