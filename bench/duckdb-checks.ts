import { DuckDBInstance } from '@duckdb/node-api';
import { loadContractFile } from '../lib/cli/contract-file.js';
import { isTemporalType } from '../lib/contract/column-type.js';
import type { Contract } from '../lib/contract/model.js';
import { localPartitionFiles } from '../lib/storage/local-files.js';
import type { CommonViolation } from './orders-data.js';

/**
 * `node dist/bench/duckdb-checks.js <contract.yaml> <now ISO> <file|dir>...`: the reference
 * engine. Runs the contract's checks as SQL over the same Parquet files with DuckDB and prints
 * `{ rows, violations: [{ rule, column, count }] }` in the shape the bench compares.
 *
 * Only the rules the bench contract uses are translated (required, enum, min, max, grain,
 * freshness, min_rows, max_rows); any other rule stops the script rather than being skipped.
 */
const [contractPath, nowText, ...paths] = process.argv.slice(2);
if (!contractPath || !nowText || paths.length === 0) throw new Error('usage: duckdb-checks <contract.yaml> <now> <file|dir>...');
const now = Date.parse(nowText);
const { contract, problems } = await loadContractFile(contractPath);
if (!contract) throw new Error(`${contractPath} is not a valid contract: ${JSON.stringify(problems)}`);

const files = (await localPartitionFiles(paths)).map((file) => file.path);
const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`);
const source = `read_parquet([${files.map(literal).join(', ')}], hive_partitioning = false)`;

interface Measure { readonly alias: string; readonly sql: string; readonly rule: string; readonly column: string | null }
const measures: Measure[] = [];
for (const spec of contract.schema.columns) {
  const column = ident(spec.name);
  unsupported(spec, contract);
  if (spec.required || contract.schema.grain.includes(spec.name)) {
    measures.push({ alias: `required_${measures.length}`, rule: 'required', column: spec.name, sql: `count(*) FILTER (WHERE ${column} IS NULL)` });
  }
  if (spec.enum) {
    measures.push({ alias: `enum_${measures.length}`, rule: 'enum', column: spec.name, sql: `count(*) FILTER (WHERE ${column} IS NOT NULL AND ${column} NOT IN (${spec.enum.map(literal).join(', ')}))` });
  }
  // Contract bounds of dates and timestamps are epoch milliseconds.
  const ordered = isTemporalType(spec.type) ? `epoch_ms(${column})` : column;
  if (spec.min !== undefined) measures.push({ alias: `min_${measures.length}`, rule: 'min', column: spec.name, sql: `count(*) FILTER (WHERE ${ordered} < ${literal(spec.min)})` });
  if (spec.max !== undefined) measures.push({ alias: `max_${measures.length}`, rule: 'max', column: spec.name, sql: `count(*) FILTER (WHERE ${ordered} > ${literal(spec.max)})` });
}
const freshness = contract.sla?.freshnessColumn;
const select = [
  'count(*)::DOUBLE AS rows',
  ...measures.map((m) => `(${m.sql})::DOUBLE AS ${m.alias}`),
  ...(freshness ? [`epoch_ms(max(${ident(freshness)}))::DOUBLE AS newest`] : []),
];
const grain = contract.schema.grain;
const grainSql = grain.length === 0 ? undefined
  : `SELECT count(*)::DOUBLE AS duplicated FROM (SELECT 1 FROM ${source} WHERE ${grain.map((c) => `${ident(c)} IS NOT NULL`).join(' AND ')} GROUP BY ${grain.map(ident).join(', ')} HAVING count(*) > 1)`;

// performance.now() counts from process start: this much went to starting Node and loading DuckDB.
const startupMs = performance.now();
const instance = await DuckDBInstance.create(':memory:');
const connection = await instance.connect();
const totalsStarted = performance.now();
const totals = (await connection.runAndReadAll(`SELECT ${select.join(', ')} FROM ${source}`)).getRowObjectsJS()[0] as Record<string, number | null>;
const grainStarted = performance.now();
const duplicated = grainSql ? Number((await connection.runAndReadAll(grainSql)).getRowObjectsJS()[0]?.duplicated ?? 0) : 0;
const grainMs = performance.now() - grainStarted;
const totalsMs = grainStarted - totalsStarted;
connection.closeSync();
instance.closeSync();

const rows = Number(totals.rows);
const violations: CommonViolation[] = [];
for (const m of measures) {
  const count = Number(totals[m.alias] ?? 0);
  if (count > 0) violations.push({ rule: m.rule, column: m.column, count });
}
if (duplicated > 0) violations.push({ rule: 'grain', column: null, count: duplicated });
const { minRows, maxRows, maxLagHours } = contract.sla ?? {};
if (minRows !== undefined && rows < minRows) violations.push({ rule: 'min_rows', column: null, count: 1 });
if (maxRows !== undefined && rows > maxRows) violations.push({ rule: 'max_rows', column: null, count: 1 });
const newest = totals.newest;
if (freshness && maxLagHours !== undefined && newest !== null && newest !== undefined && (now - Number(newest)) / 3_600_000 > maxLagHours) {
  violations.push({ rule: 'freshness', column: freshness, count: 1 });
}
process.stdout.write(`${JSON.stringify({ rows, violations, phases_ms: { startup: Math.round(startupMs), checks_query: Math.round(totalsMs), grain_query: Math.round(grainMs), until_output: Math.round(performance.now()) } })}\n`);


function unsupported(spec: Contract['schema']['columns'][number], owner: Contract): void {
  const rules = { pattern: spec.pattern, min_length: spec.minLength, max_length: spec.maxLength, not_in_future: spec.notInFuture || undefined, unique: spec.unique || undefined, required_when: spec.requiredWhen };
  const used = Object.entries(rules).filter(([, value]) => value !== undefined).map(([name]) => name);
  if (used.length > 0) throw new Error(`duckdb-checks does not translate ${used.join(', ')} (column ${spec.name} of ${owner.name}); extend it before benchmarking such a contract`);
}
