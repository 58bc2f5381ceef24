import type { Report } from '../../lib/report/report.js';
import type { SpecContract } from './contract-spec.js';
import { queryRows } from './duckdb-session.js';
import type { FileView } from './file-view.js';
import { rowCounts, type RowCount } from './oracle-rules.js';
import { countKey } from './outcome.js';

/**
 * Every sample contract-gate gives for a row rule must point at a row that breaks that rule, as
 * the oracle's own condition says: a wrong row number (across row groups, pages or slices) shows
 * here even when the counts agree. `more`: conditions of rules beyond the row rules (references).
 */
export async function sampleDifferences(contract: SpecContract, report: Report, paths: readonly string[], views: readonly FileView[], more: (view: FileView) => RowCount[] = () => []): Promise<string[]> {
  const out: string[] = [];
  for (const violation of report.violations) {
    const key = countKey(violation.rule, violation.column);
    for (const [index, path] of paths.entries()) {
      const rows = violation.samples.filter((s) => s.file === path && s.row !== null).map((s) => s.row as number);
      const condition = [...rowCounts(contract, views[index]!), ...more(views[index]!)].find((c) => c.key === key);
      if (rows.length === 0 || !condition) continue;
      const innocent = await rowsNotBreaking(views[index]!, condition.where, rows);
      for (const row of innocent) out.push(`sample ${key}: row ${row} of ${path.split('/').pop()} does not break the rule`);
    }
  }
  return out;
}

/** Of `rows` (0-based, in file order), those where `where` does not hold. */
async function rowsNotBreaking(view: FileView, where: string, rows: readonly number[]): Promise<number[]> {
  // One thread scans in file order, so row_number() is the row's place in the file.
  const numbered = `SELECT *, row_number() OVER () - 1 AS "__row" FROM ${view.from}`;
  const found = await queryRows(`SELECT "__row" AS row FROM (${numbered}) WHERE "__row" IN (${rows.join(', ')}) AND (${where})`);
  const breaking = new Set(found.map((r) => Number(r.row)));
  return [...new Set(rows)].filter((row) => !breaking.has(row));
}
