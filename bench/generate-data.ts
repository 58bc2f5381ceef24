import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileWriter, ParquetWriter, type SchemaElement } from 'hyparquet-writer';
import { COLUMNS, fileCount, fileName, fileRows, ordersChunk, partitionDir, ROW_GROUP, type Layout } from './orders-data.js';

/**
 * `node dist/bench/generate-data.js <rows> <one|ten>`: writes one layout of the bench partition
 * with hyparquet-writer (Snappy, statistics, row groups of 250,000), one row group at a time so
 * memory stays flat at any size. Writes into a temporary directory and renames it into place, so
 * an interrupted run never leaves a partial partition that looks complete.
 */
const SCHEMA: SchemaElement[] = [
  { name: 'root', num_children: COLUMNS.length },
  { name: 'order_id', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'customer_id', type: 'INT64', repetition_type: 'OPTIONAL' },
  { name: 'status', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'OPTIONAL' },
  { name: 'amount', type: 'INT64', converted_type: 'DECIMAL', precision: 12, scale: 2, repetition_type: 'OPTIONAL' },
  { name: 'ordered_at', type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type: 'OPTIONAL' },
  { name: 'updated_at', type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: true, unit: 'MICROS' }, repetition_type: 'OPTIONAL' },
];

const rows = Number(process.argv[2]);
const layout = process.argv[3] as Layout;
if (!Number.isSafeInteger(rows) || rows <= 0 || !['one', 'ten', 'duckdb-one-group'].includes(layout)) throw new Error('usage: generate-data <rows> <one|ten|duckdb-one-group>');

const target = partitionDir(rows, layout);
if (existsSync(target)) process.exit(0);
const staging = `${target}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
const started = performance.now();
if (layout === 'duckdb-one-group') await rewriteWithDuckDB(join(partitionDir(rows, 'one'), fileName(0)), join(staging, fileName(0)), rows);
else writeWithHyparquet(rows, layout, staging);
mkdirSync(dirname(target), { recursive: true });
renameSync(staging, target);
process.stderr.write(`generated ${target} (${rows.toLocaleString('en-US')} rows, ${fileCount(layout)} file(s)) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

/** DuckDB's own writer, its defaults but one row group: the same rows, written as DuckDB writes them. */
async function rewriteWithDuckDB(source: string, file: string, rowGroup: number): Promise<void> {
  if (!existsSync(source)) throw new Error(`${source} is missing: generate the 'one' layout first`);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const connection = await (await DuckDBInstance.create(':memory:')).connect();
  await connection.run(`COPY (SELECT * FROM read_parquet('${source}')) TO '${file}' (FORMAT parquet, ROW_GROUP_SIZE ${rowGroup})`);
  connection.closeSync();
}

function writeWithHyparquet(rows: number, layout: Layout, staging: string): void {
for (let index = 0; index < fileCount(layout); index++) {
  const { first, end } = fileRows(rows, layout, index);
  const writer = new ParquetWriter({ writer: fileWriter(join(staging, fileName(index))), schema: SCHEMA, codec: 'SNAPPY', statistics: true });
  // One write per row group: the writer encodes and flushes it before the next is generated.
  for (let start = first; start < end; start += ROW_GROUP) {
    const chunk = ordersChunk(start, Math.min(end, start + ROW_GROUP));
    writer.write({ columnData: COLUMNS.map((name) => ({ name, data: chunk[name] })), rowGroupSize: ROW_GROUP });
  }
  writer.finish();
}
}
