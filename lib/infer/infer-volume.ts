import { count } from './infer-column.js';
import type { ProposedContract } from './proposal.js';
import { roundDown, roundUp } from './round-outward.js';

/** The band's margins: half the smallest partition seen, twice the largest. */
export const VOLUME_FLOOR = 0.5;
export const VOLUME_CEILING = 2;

/**
 * A volume band from the partitions' row counts, wide on purpose: a week of samples does not
 * show a month-end or a holiday, and a band that pages on a normal day is turned off.
 */
export function inferVolume(rows: readonly number[]): ProposedContract['volume'] {
  if (rows.length === 0) return undefined;
  const [smallest, largest] = [Math.min(...rows), Math.max(...rows)];
  const minRows = Math.floor(roundDown(smallest * VOLUME_FLOOR, true));
  const maxRows = Math.max(1, Math.ceil(roundUp(largest * VOLUME_CEILING, true)));
  const seen = rows.length === 1 ? `seen ${count(smallest, 'row')} in 1 partition` : `seen ${smallest.toLocaleString('en-US')} to ${count(largest, 'row')} per partition in ${rows.length} partitions`;
  const note = `volume: ${seen}; the band is ${100 * (1 - VOLUME_FLOOR)}% below the smallest and ${100 * (VOLUME_CEILING - 1)}% above the largest, rounded outward`;
  return { ...(minRows > 0 ? { minRows } : {}), maxRows, note };
}
