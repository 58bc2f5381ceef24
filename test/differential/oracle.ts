import type { SpecContract } from './contract-spec.js';
import { queryRows, sqlIdent } from './duckdb-session.js';
import type { FileView } from './file-view.js';
import { viewFile } from './oracle-file.js';
import { keySets, repeatedKeys } from './oracle-keys.js';
import { orderedValue, rowCounts } from './oracle-rules.js';
import { countKey, type Outcome } from './outcome.js';

const HOUR = 3_600_000;

/** What the contract's rules say about these files, computed by DuckDB from the README alone; and how it saw each file. */
export async function oracleOutcome(contract: SpecContract, paths: readonly string[]): Promise<{ outcome: Outcome; views: FileView[] }> {
  const counts: Record<string, number> = {};
  const add = (key: string, n: number) => {
    if (n > 0) counts[key] = (counts[key] ?? 0) + n;
  };
  const views: FileView[] = [];
  const fileRows: number[] = [];
  let newest: number | undefined;
  for (const path of paths) {
    const view = await viewFile(contract, path);
    views.push(view);
    schemaFindings(contract, view).forEach((key) => add(key, 1));
    const scan = await scanFile(contract, view);
    fileRows.push(scan.rows);
    for (const [key, n] of Object.entries(scan.counts)) add(key, n);
    if (scan.newest !== undefined && (newest === undefined || scan.newest > newest)) newest = scan.newest;
  }
  for (const set of keySets(contract)) add(set.key, await repeatedKeys(set.columns, views));
  const rows = fileRows.reduce((a, b) => a + b, 0);
  partitionRules(contract, rows, newest).forEach((key) => add(key, 1));
  return { outcome: { status: Object.keys(counts).length === 0 ? 'pass' : 'fail', rows, fileRows, counts }, views };
}

/** Per file: missing and mistyped contract columns, and extra ones when the contract rejects them. */
function schemaFindings(contract: SpecContract, view: FileView): string[] {
  const found: string[] = [];
  for (const [name, access] of view.columns) {
    if (access === 'missing') found.push(countKey('missing_column', name));
    if (access === 'mistyped') found.push(countKey('type', name));
  }
  if (contract.extraColumns === 'reject') {
    const known = new Set(contract.columns.map((c) => c.name));
    for (const name of view.names) if (!known.has(name)) found.push(countKey('unexpected_column', name));
  }
  return found;
}

async function scanFile(contract: SpecContract, view: FileView): Promise<{ rows: number; counts: Record<string, number>; newest?: number }> {
  const counts = rowCounts(contract, view);
  const fresh = contract.sla.freshness && view.columns.get(contract.sla.freshness.column);
  const column = contract.columns.find((c) => c.name === contract.sla.freshness?.column);
  const newest = typeof fresh === 'object' && column ? [`max(CASE WHEN NOT ${fresh.isNull} AND NOT ${fresh.isInvalid} THEN ${orderedValue(column.type, fresh.value)} END) AS newest`] : [];
  const select = ['count(*) AS "rows"', ...counts.map((c, i) => `count(*) FILTER (WHERE ${c.where}) AS ${sqlIdent(`c${i}`)}`), ...newest];
  const [row] = await queryRows(`SELECT ${select.join(', ')} FROM ${view.from}`);
  const result: Record<string, number> = {};
  counts.forEach((c, i) => (result[c.key] = (result[c.key] ?? 0) + Number(row?.[`c${i}`] ?? 0)));
  const max = row?.newest;
  return { rows: Number(row?.rows ?? 0), counts: result, ...(typeof max === 'number' ? { newest: max } : {}) };
}

/**
 * Volume against the band; freshness: the newest value's lag behind the check time, in hours. The
 * README does not say what a partition without any value of the freshness column is; like
 * contract-gate, the oracle finds nothing stale then (nulls in a required column still fail `required`).
 */
function partitionRules(contract: SpecContract, rows: number, newest: number | undefined): string[] {
  const { minRows, maxRows, freshness } = contract.sla;
  const found: string[] = [];
  if (minRows !== undefined && rows < minRows) found.push('min_rows');
  if (maxRows !== undefined && rows > maxRows) found.push('max_rows');
  if (freshness && newest !== undefined && (contract.now - newest) / HOUR > freshness.maxLagHours) found.push(countKey('freshness', freshness.column));
  return found;
}
