import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATRIX_TABLES } from '../matrix/matrix-tables.js';
import { openDuckDB, PARQUET_WRITERS, writeCached } from '../writers/index.js';
import { checkerRows, chunkMismatches, describe as describeFile, differingRows, footer, keptGroups, rewriteFile, withholdCases } from './rewrite-helpers.js';

// The wide table: every contract type, required and optional, with nulls, NaN, -0, infinities,
// empty strings and bytes that are not UTF-8; 10,000 rows, so the small-group settings write many groups.
let session: { connection: DuckDBConnection; close: () => void };
let dir: string;
beforeAll(async () => {
  session = await openDuckDB();
  dir = mkdtempSync(join(tmpdir(), 'rows-writers-'));
});
afterAll(() => {
  session?.close();
  rmSync(dir, { recursive: true, force: true });
});

// The edge tables: no rows, all nulls, each type's extremes, required columns.
const tables = MATRIX_TABLES.filter((t) => t.label === 'wide' || t.label.startsWith('edge-'));

describe.each(PARQUET_WRITERS)('files written by $id ($settings)', (variant) => {
  it.each(tables)('of the $label table lose exactly the withheld rows, keep types, codecs and statistics, and read back in the checker', async (table) => {
    const source = await writeCached(variant, table.table(), table.label);
    const sourceFooter = await footer(source);
    const checked = await checkerRows(source);
    for (const { label, rows } of withholdCases(sourceFooter)) {
      const out = join(dir, `${table.label}-${variant.id}-${label.replaceAll(' ', '-')}.parquet`);
      await rewriteFile('parquet', source, rows, out);
      const connection = session.connection;
      expect(await differingRows(connection, source, rows, out), label).toBe(0);
      expect(await describeFile(connection, out), label).toEqual(await describeFile(connection, source));
      expect(chunkMismatches(sourceFooter, await footer(out), keptGroups(sourceFooter, rows)), label).toEqual([]);
      const withheld = new Set(rows);
      const reread = await checkerRows(out);
      expect(reread.columns).toEqual(checked.columns);
      expect(reread.rows, label).toEqual(checked.rows.filter((_, i) => !withheld.has(i)));
    }
  });
});
