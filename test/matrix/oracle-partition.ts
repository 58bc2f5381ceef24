import type { Contract } from '../../lib/contract/model.js';

const MILLIS_PER_HOUR = 3_600_000;

/** Volume and freshness: each fails once for the partition, never per row. */
export function partitionCounts(contract: Contract, rows: number, newest: unknown, now: number): [string, number][] {
  const sla = contract.sla;
  const found: [string, number][] = [];
  if (sla?.minRows !== undefined && rows < sla.minRows) found.push(['min_rows', 1]);
  if (sla?.maxRows !== undefined && rows > sla.maxRows) found.push(['max_rows', 1]);
  if (sla?.freshnessColumn && sla.maxLagHours !== undefined && newest !== null && newest !== undefined) {
    if ((now - Number(newest)) / MILLIS_PER_HOUR > sla.maxLagHours) found.push([`freshness:${sla.freshnessColumn}`, 1]);
  }
  return found;
}
