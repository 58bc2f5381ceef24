import type { SpecContract } from './contract-spec.js';
import { queryRows } from './duckdb-session.js';
import type { HistoryPartition } from './spec-facts.js';

/** What `volume_vs_history` says: skipped for want of history, broken, or kept. */
export type HistoryVerdict = 'skipped' | 'broken' | 'kept';

/**
 * README, "Volume against history": the rows against DuckDB's median() of the last `lookback`
 * published partitions; fewer than 3 and the rule is skipped. The README leaves a median of 0
 * open: rows / 0 is taken as infinitely many times, and 0 rows against a median of 0 as 1 (the
 * same as history), as contract-gate does.
 */
export async function historyVerdict(contract: SpecContract, rows: number, history: readonly HistoryPartition[] | undefined): Promise<HistoryVerdict | undefined> {
  const rule = contract.sla.volumeVsHistory;
  if (!rule || !history) return undefined;
  if (history.length === 0) return 'skipped';
  const values = history.map((p, i) => `(${i}, ${p.rows})`).join(', ');
  const ratio = `CASE WHEN m = 0 THEN (CASE WHEN ${rows} = 0 THEN 1 ELSE CAST('inf' AS DOUBLE) END) ELSE ${rows} / m END`;
  const low = rule.minRatio === undefined ? 'false' : `${ratio} < CAST('${rule.minRatio}' AS DOUBLE)`;
  const high = rule.maxRatio === undefined ? 'false' : `${ratio} > CAST('${rule.maxRatio}' AS DOUBLE)`;
  const sql = `WITH h(i, r) AS (VALUES ${values}), last AS (SELECT CAST(r AS DOUBLE) AS r FROM h WHERE i < ${rule.lookback})
    SELECT n, (${low}) OR (${high}) AS broken FROM (SELECT count(*) AS n, median(r) AS m FROM last)`;
  const [row] = await queryRows(sql);
  if (Number(row?.n ?? 0) < 3) return 'skipped';
  return row?.broken === true ? 'broken' : 'kept';
}
