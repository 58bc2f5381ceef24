import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogicalTable } from './logical-table.js';
import { writeWithDuckDB } from './duckdb-writer.js';

let stagingDir: string | undefined;
let written = 0;
const staged = new WeakMap<LogicalTable, Promise<string>>();

/**
 * Hands a logical table to a writer that reads Parquet (arrow-rs, polars) as a plain DuckDB file.
 * That writer decodes it into its own in-memory form (Arrow arrays, a polars DataFrame) and
 * encodes the output with its own code; the staging file only carries exact types and values
 * across. One staging file per table object serves every variant; all go when the process exits.
 */
export function stagingFile(table: LogicalTable): Promise<string> {
  let path = staged.get(table);
  if (!path) {
    path = writeStaging(table);
    // A failed write must not poison later attempts with the same table.
    path.catch(() => staged.delete(table));
    staged.set(table, path);
  }
  return path;
}

async function writeStaging(table: LogicalTable): Promise<string> {
  if (!stagingDir) {
    stagingDir = mkdtempSync(join(tmpdir(), 'writer-staging-'));
    const dir = stagingDir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  const path = join(stagingDir, `${++written}.parquet`);
  await writeWithDuckDB(table, path, 'COMPRESSION uncompressed');
  return path;
}
