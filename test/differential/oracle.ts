import type { SpecContract } from './contract-spec.js';
import { queryRows, sqlIdent } from './duckdb-session.js';
import { lackingColumn, type FileView } from './file-view.js';
import { viewFile } from './oracle-file.js';
import { historyVerdict } from './oracle-history.js';
import { keySets, repeatedKeys } from './oracle-keys.js';
import { referenceCounts, type ReferenceTables } from './oracle-references.js';
import { orderedValue, rowCounts, type RowCount } from './oracle-rules.js';
import { severityOfKey, type FindingSeverity } from './oracle-severity.js';
import { countKey } from './outcome.js';
import type { SpecFacts } from './spec-facts.js';

const HOUR_NANOS = 3_600_000_000_000;

/** Each rule's count by key, its severity, and which keys are about more than single rows. */
export interface Findings {
  readonly counts: Readonly<Record<string, number>>;
  readonly severities: Readonly<Record<string, FindingSeverity>>;
  /** Keys with a finding no row tolerance can withhold (a key like `type:c` may be both). */
  readonly batchLevel: ReadonlySet<string>;
}

export interface OracleScan {
  readonly findings: Findings;
  readonly views: FileView[];
  readonly rows: number;
  readonly fileRows: number[];
  /** Notes a report must carry, e.g. `volume_vs_history skipped`. */
  readonly notes: string[];
}

class FindingsBuilder implements Findings {
  readonly counts: Record<string, number> = {};
  readonly severities: Record<string, FindingSeverity> = {};
  readonly batchLevel = new Set<string>();
  constructor(private readonly contract: SpecContract) {}

  add(key: string, n: number, batchLevel: boolean, severity = severityOfKey(this.contract, key)): void {
    if (n <= 0) return;
    this.counts[key] = (this.counts[key] ?? 0) + n;
    this.severities[key] = severity;
    if (batchLevel) this.batchLevel.add(key);
  }
}

/** What the contract's rules say about these files and facts, computed by DuckDB from the README alone; and how it saw each file. */
export async function oracleFindings(contract: SpecContract, paths: readonly string[], facts: SpecFacts, keys: ReferenceTables): Promise<OracleScan> {
  const found = new FindingsBuilder(contract);
  const views: FileView[] = [];
  const fileRows: number[] = [];
  let newest: bigint | undefined;
  for (const path of paths) {
    const view = await viewFile(contract, path);
    views.push(view);
    schemaFindings(contract, view).forEach((key) => found.add(key, 1, true));
    const scan = await scanFile(contract, view, keys);
    fileRows.push(scan.rows);
    for (const [key, n] of Object.entries(scan.rowLevel)) found.add(key, n, false);
    for (const [key, n] of Object.entries(scan.batchLevel)) found.add(key, n, true);
    if (scan.newest !== undefined && (newest === undefined || scan.newest > newest)) newest = scan.newest;
  }
  for (const column of keys.unavailable) found.add(countKey('references', column), 1, true);
  for (const set of keySets(contract)) found.add(set.key, await repeatedKeys(set.columns, views), true);
  const rows = fileRows.reduce((a, b) => a + b, 0);
  partitionRules(contract, rows, newest, found);
  const history = await historyVerdict(contract, rows, facts.history);
  if (history === 'broken') found.add('volume_vs_history', 1, true);
  return { findings: found, views, rows, fileRows, notes: [...lackedNotes(contract, views), ...(history === 'skipped' ? ['volume_vs_history skipped'] : [])] };
}

/** README, "Columns a file lacks": one note per column some file lacks and that reads as nulls there. */
function lackedNotes(contract: SpecContract, views: readonly FileView[]): string[] {
  return contract.columns
    .filter((column) => views.some((view) => !view.names.includes(column.name) && lackingColumn(contract, column) !== 'missing'))
    .map((column) => `absent ${column.name}`);
}

/** Per file: missing and mistyped contract columns, and extra ones when the contract reports them. */
function schemaFindings(contract: SpecContract, view: FileView): string[] {
  const found: string[] = [];
  for (const [name, access] of view.columns) {
    if (access === 'missing') found.push(countKey('missing_column', name));
    if (access === 'mistyped') found.push(countKey('type', name));
  }
  if (contract.extraColumns !== 'allow') {
    const known = new Set(contract.columns.map((c) => c.name));
    for (const name of view.names) if (!known.has(name)) found.push(countKey('unexpected_column', name));
  }
  return found;
}

interface FileScan {
  readonly rows: number;
  readonly rowLevel: Record<string, number>;
  readonly batchLevel: Record<string, number>;
  /** Epoch nanoseconds, exact: a double of them is 256 ns coarse, enough to turn a lag of 0 into one past 0. */
  readonly newest?: bigint;
}

async function scanFile(contract: SpecContract, view: FileView, keys: ReferenceTables): Promise<FileScan> {
  const rowRules = rowCounts(contract, view);
  const counts: RowCount[] = [...rowRules, ...referenceCounts(contract, view, keys)];
  const fresh = contract.sla.freshness && view.columns.get(contract.sla.freshness.column);
  const column = contract.columns.find((c) => c.name === contract.sla.freshness?.column);
  const newest = typeof fresh === 'object' && column ? [`max(CASE WHEN NOT ${fresh.isNull} AND NOT ${fresh.isInvalid} THEN ${orderedValue(column.type, fresh.value)} END) AS newest`] : [];
  const select = ['count(*) AS "rows"', ...counts.map((c, i) => `count(*) FILTER (WHERE ${c.where}) AS ${sqlIdent(`c${i}`)}`), ...newest];
  const [row] = await queryRows(`SELECT ${select.join(', ')} FROM ${view.from}`);
  const rowLevel: Record<string, number> = {};
  const batchLevel: Record<string, number> = {};
  counts.forEach((c, i) => {
    const into = i < rowRules.length ? rowLevel : batchLevel;
    into[c.key] = (into[c.key] ?? 0) + Number(row?.[`c${i}`] ?? 0);
  });
  const max = row?.newest;
  return { rows: Number(row?.rows ?? 0), rowLevel, batchLevel, ...(typeof max === 'bigint' || typeof max === 'number' ? { newest: BigInt(max) } : {}) };
}

/**
 * Volume against the band; freshness: the newest value's lag behind the check time, in hours,
 * past max_lag_hours with the contract's severity, or past only warn_lag_hours a warning. The
 * README does not say what a partition without any value of the freshness column is; like
 * contract-gate, the oracle finds nothing stale then (nulls in a required column still fail `required`).
 */
function partitionRules(contract: SpecContract, rows: number, newest: bigint | undefined, found: FindingsBuilder): void {
  const { minRows, maxRows, freshness } = contract.sla;
  if (minRows !== undefined && rows < minRows) found.add('min_rows', 1, true);
  if (maxRows !== undefined && rows > maxRows) found.add('max_rows', 1, true);
  if (!freshness || newest === undefined) return;
  const lagNanos = BigInt(contract.now) * 1_000_000n - newest;
  const past = (hours: number | undefined) => hours !== undefined && lagNanos > BigInt(Math.round(hours * HOUR_NANOS));
  const key = countKey('freshness', freshness.column);
  if (past(freshness.maxLagHours)) found.add(key, 1, true);
  else if (past(freshness.warnLagHours)) found.add(key, 1, true, 'warning');
}
