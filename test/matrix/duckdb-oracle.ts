import type { DuckDBConnection } from '@duckdb/node-api';
import type { Contract } from '../../lib/contract/model.js';
import { queryRows, sqlIdent, sqlString, withDuckDB } from '../writers/index.js';
import { conditionSql, futureMeasure, valueMeasures, type Measure, type ReadableColumn } from './oracle-measures.js';
import { accepts, contractTypeOf, storedColumns } from './oracle-schema.js';
import { partitionCounts } from './oracle-partition.js';

/** What a check run found, in the terms both engines share: rows, and a count per `rule:column`. */
export interface RuleCounts {
  readonly rows: number;
  readonly counts: Readonly<Record<string, number>>;
}

/**
 * The expected outcome of validating one Parquet file against a contract, computed by DuckDB in
 * SQL over `read_parquet` of the same file. Every rule is written here from the contract's
 * meaning; nothing of contract-gate's engine is used, only its contract loader's model.
 */
export async function oracleCounts(contract: Contract, file: string, now: number): Promise<RuleCounts> {
  return withDuckDB(async (connection) => {
    const counts: Record<string, number> = {};
    const add = (key: string, n: number) => { if (n > 0) counts[key] = (counts[key] ?? 0) + n; };
    const readable = await schemaCounts(connection, contract, file, add);
    const measures = columnMeasures(contract, readable, now);
    const source = `read_parquet(${sqlString(file)})`;
    const freshness = contract.sla?.freshnessColumn;
    const newest = freshness && readable.has(freshness) ? `, max(epoch_us(${sqlIdent(freshness)}::TIMESTAMP)) / 1000 AS newest` : '';
    const select = measures.map((m, i) => `count(*) FILTER (WHERE ${m.where}) AS m${i}`);
    const [totals] = await queryRows(connection, `SELECT count(*) AS rows${select.map((s) => `, ${s}`).join('')}${newest} FROM ${source}`);
    measures.forEach((m, i) => add(m.key, Number(totals![`m${i}`])));
    for (const [key, n] of await keyCounts(connection, contract, readable, source)) add(key, n);
    const rows = Number(totals!.rows);
    for (const [key, n] of partitionCounts(contract, rows, totals!.newest, now)) add(key, n);
    return { rows, counts };
  });
}

const mustHaveValueIn = (contract: Contract, spec: Contract['schema']['columns'][number]) => spec.required || contract.schema.grain.includes(spec.name);

/** missing_column, unexpected_column and type, one each per file; returns the checkable columns. */
async function schemaCounts(connection: DuckDBConnection, contract: Contract, file: string, add: (key: string, n: number) => void): Promise<Map<string, ReadableColumn>> {
  const stored = await storedColumns(connection, file);
  const readable = new Map<string, ReadableColumn>();
  for (const spec of contract.schema.columns) {
    const column = stored.find((s) => s.name === spec.name);
    const type = column && contractTypeOf(column);
    if (!column) {
      // README, "Columns a file lacks": only a required column without a default is missing; any other reads as nulls.
      if (mustHaveValueIn(contract, spec) && spec.default === undefined && spec.severity?.required !== 'warn') add(`missing_column:${spec.name}`, 1);
    }
    else if (!type || !accepts(spec.type, type)) add(`type:${spec.name}`, 1);
    else readable.set(spec.name, { spec, stored: column });
  }
  const named = new Set(contract.schema.columns.map((c) => c.name));
  if (contract.schema.extraColumns === 'reject') for (const s of stored) if (!named.has(s.name)) add(`unexpected_column:${s.name}`, 1);
  return readable;
}

function columnMeasures(contract: Contract, readable: ReadonlyMap<string, ReadableColumn>, now: number): Measure[] {
  return [...readable.values()].flatMap((column) => {
    const mustHaveValue = column.spec.required || contract.schema.grain.includes(column.spec.name);
    const future = futureMeasure(column.spec, now);
    return [...valueMeasures(column, mustHaveValue, conditionSql(column.spec, readable)), ...(future ? [future] : [])];
  });
}

/**
 * `grain` and `unique`: the number of distinct keys (no part null) that occur more than once.
 * A unique column that is the whole grain is counted once, as the grain.
 */
async function keyCounts(connection: DuckDBConnection, contract: Contract, readable: ReadonlyMap<string, ReadableColumn>, source: string): Promise<[string, number][]> {
  const { grain } = contract.schema;
  const keySets: [string, readonly string[]][] = grain.length > 0 ? [['grain', grain]] : [];
  for (const spec of contract.schema.columns) {
    if (spec.unique && !(grain.length === 1 && grain[0] === spec.name)) keySets.push([`unique:${spec.name}`, [spec.name]]);
  }
  const found: [string, number][] = [];
  for (const [key, columns] of keySets) {
    if (!columns.every((name) => readable.has(name))) continue;
    const parts = columns.map(sqlIdent);
    const sql = `SELECT count(*) AS n FROM (SELECT 1 FROM ${source} WHERE ${parts.map((p) => `${p} IS NOT NULL`).join(' AND ')} GROUP BY ${parts.join(', ')} HAVING count(*) > 1)`;
    found.push([key, Number((await queryRows(connection, sql))[0]!.n)]);
  }
  return found;
}
