import { parseArgs } from 'node:util';
import { DuckDBInstance } from '@duckdb/node-api';
import { loadContractFile } from '../lib/cli/contract-file.js';
import { localPartitionFiles } from '../lib/storage/local-files.js';
import { ident, keySetQueries, sourceSql, valueMeasures } from './duckdb-measures.js';
import type { CommonViolation } from './violation-set.js';

/**
 * `node dist/bench/duckdb-checks.js [--threads N] <contract.yaml> <now ISO> <file|dir>...`: the
 * reference engine. Runs the contract's checks as SQL (duckdb-measures.ts) over the same files
 * with DuckDB (N threads: `SET threads`; default DuckDB's own, the machine's cores) and prints
 * `{ status, rows, violations: [{ rule, column, count }], phases_ms }` in the shape the bench compares.
 */
const { values: flags, positionals } = parseArgs({ options: { threads: { type: 'string' } }, allowPositionals: true });
const [contractPath, nowText, ...paths] = positionals;
const threads = flags.threads === undefined ? undefined : Number(flags.threads);
if (!contractPath || !nowText || paths.length === 0) throw new Error('usage: duckdb-checks [--threads N] <contract.yaml> <now> <file|dir>...');
if (threads !== undefined && (!Number.isInteger(threads) || threads < 1)) throw new Error(`duckdb-checks: --threads takes a whole number >= 1, not "${flags.threads}"`);
const { contract, problems } = await loadContractFile(contractPath);
if (!contract) throw new Error(`${contractPath} is not a valid contract: ${JSON.stringify(problems)}`);
const judged = judgedAt(Date.parse(nowText), paths);

const files = (await localPartitionFiles(paths)).map((file) => file.path);
const source = sourceSql(contract, files);
const measures = valueMeasures(contract);
const freshness = contract.sla?.freshnessColumn;
const select = [
  'count(*)::DOUBLE AS rows',
  ...measures.map((m) => `(${m.sql})::DOUBLE AS ${m.alias}`),
  ...(freshness ? [`epoch_ms(max(${ident(freshness)}))::DOUBLE AS newest`] : []),
];

// performance.now() counts from process start: this much went to starting Node and loading DuckDB.
const startupMs = performance.now();
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
await connection.run("SET TimeZone = 'UTC'");
if (threads !== undefined) await connection.run(`SET threads = ${threads}`);
const totalsStarted = performance.now();
const totals = (await connection.runAndReadAll(`SELECT ${select.join(', ')} FROM ${source}`)).getRowObjectsJS()[0] as Record<string, number | null>;
const keysStarted = performance.now();
const repeated: CommonViolation[] = [];
for (const query of keySetQueries(contract, source)) {
  const count = Number((await connection.runAndReadAll(query.sql)).getRowObjectsJS()[0]?.repeated ?? 0);
  if (count > 0) repeated.push({ rule: query.rule, column: query.column, count });
}
const keysMs = performance.now() - keysStarted;
connection.closeSync();
instance.closeSync();

const rows = Number(totals.rows);
const violations: CommonViolation[] = [];
for (const m of measures) {
  const count = Number(totals[m.alias] ?? 0);
  if (count > 0) violations.push({ rule: m.rule, column: m.column, count });
}
violations.push(...repeated);
const { minRows, maxRows, maxLagHours } = contract.sla ?? {};
if (minRows !== undefined && rows < minRows) violations.push({ rule: 'min_rows', column: null, count: 1 });
if (maxRows !== undefined && rows > maxRows) violations.push({ rule: 'max_rows', column: null, count: 1 });
const newest = totals.newest;
if (freshness && maxLagHours !== undefined && newest !== null && newest !== undefined && (judged - Number(newest)) / 3_600_000 > maxLagHours) {
  violations.push({ rule: 'freshness', column: freshness, count: 1 });
}
const phases = { startup: Math.round(startupMs), checks_query: Math.round(keysStarted - totalsStarted), grain_query: Math.round(keysMs), until_output: Math.round(performance.now()) };
process.stdout.write(`${JSON.stringify({ status: violations.length === 0 ? 'pass' : 'fail', rows, violations, phases_ms: phases })}\n`);

/**
 * Freshness is held to the check time or, when it came first, the end of the day the partition
 * names (README: time rules). The bench's contracts are daily in UTC without a clock SLA, the only
 * case computed here.
 */
function judgedAt(now: number, partitionPaths: readonly string[]): number {
  if (contract!.sla?.arrivalBy !== undefined || (contract!.sla?.timezone ?? 'UTC') !== 'UTC') throw new Error('duckdb-checks: clock SLAs and time zones are not modelled');
  const day = partitionPaths.map((path) => /dt=(\d{4})-(\d{2})-(\d{2})/.exec(path)).find((m) => m !== null);
  return day ? Math.min(now, Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]) + 1)) : now;
}
