import { describe, expect, it } from 'vitest';
import { MATRIX_TABLES } from '../matrix/matrix-tables.js';
import { PARQUET_WRITERS, writeCached } from '../writers/index.js';
import { checkerRows, chunkMismatches, describe as describeFile, differingRows, footer, keptGroups, rewriteFile, withholdCases } from './rewrite-helpers.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

// The wide table: every contract type, required and optional, with nulls, NaN, -0, infinities,
// empty strings and bytes that are not UTF-8; 10,000 rows, so the small-group settings write many groups.
const session = useDuckDBScratch('rows-writers-');

// The edge tables: no rows, all nulls, each type's extremes, required columns.
const tables = MATRIX_TABLES.filter((t) => t.label === 'wide' || t.label.startsWith('edge-'));

describe.each(PARQUET_WRITERS)('files written by $id ($settings)', (variant) => {
  it.each(tables)('of the $label table lose exactly the withheld rows, keep types, codecs and statistics, and read back in the checker', async (table) => {
    const source = await writeCached(variant, table.table(), table.label);
    const sourceFooter = await footer(source);
    const checked = await checkerRows(source);
    for (const { label, rows } of withholdCases(sourceFooter)) {
      const out = session.path(`${table.label}-${variant.id}-${label.replaceAll(' ', '-')}.parquet`);
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
