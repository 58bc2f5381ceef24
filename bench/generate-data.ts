import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileWriter, ParquetWriter } from 'hyparquet-writer';
import { shapeById, type Build, type Shape } from './shape-list.js';
import { fileName, fileRows, partitionDir } from './shape-data.js';
import { columnNames, type TableSpec } from './table-spec.js';

/**
 * `node dist/bench/generate-data.js <shape-id>`: writes one shape's partition. hyparquet-writer
 * writes one row group at a time, so memory stays flat at any size; DuckDB rewrites another
 * shape's rows (which must exist). Everything is a function of row numbers: the same bytes every
 * time. Writes into a temporary directory and renames it into place, so an interrupted run never
 * leaves a partial partition that looks complete.
 */
const shape = shapeById(process.argv[2] ?? '');
const target = partitionDir(shape);
if (existsSync(target)) process.exit(0);
const staging = `${target}.tmp-${process.pid}`;
rmSync(staging, { recursive: true, force: true });
mkdirSync(staging, { recursive: true });
const started = performance.now();
await write(shape, shape.build, staging);
mkdirSync(dirname(target), { recursive: true });
renameSync(staging, target);
process.stderr.write(`generated ${target} (${shape.rows.toLocaleString('en-US')} rows, ${readdirSync(target).length} file(s)) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);

async function write(of: Shape, build: Build, dir: string): Promise<void> {
  switch (build.kind) {
    case 'hyparquet':
      for (let index = 0; index < build.files; index++) {
        writeParquet(build.table, fileRows(of.rows, build.files, index), of.rows, build.rowGroup, build.statistics, join(dir, fileName(index, 'parquet')));
      }
      return;
    case 'twice': {
      const half = of.rows / 2;
      writeParquet(build.table, { first: 0, end: half }, half, build.rowGroup, true, join(dir, fileName(0, 'parquet')));
      copyFileSync(join(dir, fileName(0, 'parquet')), join(dir, fileName(1, 'parquet')));
      return;
    }
    case 'duckdb-parquet':
      return duckdbCopy(build.from, join(dir, fileName(0, 'parquet')), build.options);
    case 'duckdb-csv':
      return duckdbCopy(build.from, join(dir, fileName(0, 'csv')), 'FORMAT csv, HEADER true');
  }
}

/** Rows [first, end) of a `total`-row partition as one file, a row group per write. */
function writeParquet(table: TableSpec, { first, end }: { first: number; end: number }, total: number, rowGroup: number, statistics: boolean, file: string): void {
  const names = columnNames(table);
  const plain = new Set(table.plainColumns ?? []);
  const writer = new ParquetWriter({ writer: fileWriter(file), schema: table.schema, codec: 'SNAPPY', statistics });
  for (let start = first; start < end; start += rowGroup) {
    const chunk = table.chunk(start, Math.min(end, start + rowGroup), total);
    const columnData = names.map((name) => ({ name, data: chunk[name]!, ...(plain.has(name) ? { encoding: 'PLAIN' as const } : {}) }));
    writer.write({ columnData, rowGroupSize: rowGroup });
  }
  writer.finish();
}

/**
 * DuckDB's own writer over another shape's files. UTC, so CSV timestamps carry `+00`; insertion
 * order is kept (DuckDB's default), so the rows stay in partition order.
 */
async function duckdbCopy(fromId: string, file: string, options: string): Promise<void> {
  const source = partitionDir(shapeById(fromId));
  if (!existsSync(source)) throw new Error(`${source} is missing: generate shape ${fromId} first`);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run("SET TimeZone = 'UTC'");
  await connection.run(`COPY (SELECT * FROM read_parquet('${source}/*.parquet', hive_partitioning = false)) TO '${file}' (${options})`);
  connection.closeSync();
  instance.closeSync();
}
