import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import { keySetQueries, sourceSql, valueMeasures } from '../../bench/duckdb-measures.js';
import { lineitemExpected, LINEITEM } from '../../bench/lineitem-data.js';
import { NOW } from '../../bench/orders-data.js';
import { columnNames } from '../../bench/table-spec.js';
import { canonical, type CommonViolation } from '../../bench/violation-set.js';
import { loadContractFile } from '../../lib/cli/contract-file.js';
import type { Contract } from '../../lib/contract/model.js';
import { runChecksInParallel } from '../../lib/parallel/parallel-checks.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';

/**
 * The lineitem shape at 40,000 rows (four strides of its spread plants, four row groups): DuckDB's
 * SQL, the bench's oracle, and contract-gate each find exactly the planted violations, on the
 * hyparquet-writer file and on DuckDB's rewrite of it (the bench's lineitem-6m).
 */
const ROWS = 40_000;
const ROOT = mkdtempSync(join(tmpdir(), 'cg-lineitem-'));
const CONTRACT = join('bench', 'contracts', 'lineitem-bench.v1.yaml');

afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

function writeLineitem(file: string): void {
  const writer = new ParquetWriter({ writer: fileWriter(file), schema: LINEITEM.schema, codec: 'SNAPPY', statistics: true });
  for (let start = 0; start < ROWS; start += 10_000) {
    const chunk = LINEITEM.chunk(start, start + 10_000, ROWS);
    writer.write({ columnData: columnNames(LINEITEM).map((name) => ({ name, data: chunk[name]! })), rowGroupSize: 10_000 });
  }
  writer.finish();
}

async function duckdbCounts(contract: Contract, file: string): Promise<CommonViolation[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    const source = sourceSql(contract, [file]);
    const measures = valueMeasures(contract);
    const totals = (await connection.runAndReadAll(`SELECT ${measures.map((m) => `(${m.sql})::DOUBLE AS ${m.alias}`).join(', ')} FROM ${source}`)).getRowObjectsJS()[0] as Record<string, number>;
    const found = measures.map((m) => ({ rule: m.rule, column: m.column, count: Number(totals[m.alias]) }));
    for (const query of keySetQueries(contract, source)) {
      found.push({ rule: query.rule, column: query.column, count: Number((await connection.runAndReadAll(query.sql)).getRowObjectsJS()[0]!.repeated) });
    }
    return found.filter((v) => v.count > 0);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function gateCounts(contract: Contract, dir: string, workers: number): Promise<CommonViolation[]> {
  const run = await runChecksInParallel(contract, Date.parse(NOW), await localPartitionFiles([dir]), { workers });
  return run.report.violations.map((v) => ({ rule: v.rule, column: v.column ?? null, count: v.count }));
}

describe('the bench lineitem shape', () => {
  it('plants every rule at every stride: eleven rules, four rows each in 40,000 rows', () => {
    const expected = lineitemExpected(ROWS);
    expect(expected).toHaveLength(11);
    expect(expected.every((v) => v.count === 4)).toBe(true);
  });

  it('gets exactly the planted violations from DuckDB and from contract-gate, with one thread and two, as hyparquet-writer and as DuckDB write it', async () => {
    const { contract } = await loadContractFile(CONTRACT);
    const written = join(ROOT, 'hyparquet', 'dt=2026-11-29');
    const rewritten = join(ROOT, 'duckdb', 'dt=2026-11-29');
    mkdirSync(written, { recursive: true });
    mkdirSync(rewritten, { recursive: true });
    writeLineitem(join(written, 'part-0000.parquet'));
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    await connection.run(`COPY (SELECT * FROM read_parquet('${written}/part-0000.parquet', hive_partitioning = false)) TO '${rewritten}/part-0000.parquet' (FORMAT parquet, ROW_GROUP_SIZE 10000)`);
    connection.closeSync();
    instance.closeSync();
    const planted = canonical(lineitemExpected(ROWS));
    for (const dir of [written, rewritten]) {
      expect(canonical(await duckdbCounts(contract!, join(dir, 'part-0000.parquet'))), dir).toBe(planted);
      expect(canonical(await gateCounts(contract!, dir, 1)), dir).toBe(planted);
      expect(canonical(await gateCounts(contract!, dir, 2)), dir).toBe(planted);
    }
  });
});
