import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetMetadata, parquetSchema, type SchemaElement } from 'hyparquet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NUMERIC_TIME } from '../../lib/formats/column-decoder.js';
import { chunkStatistics } from '../../lib/formats/parquet-statistics.js';
import { parseCreatedBy, statisticsTrust, trustedStatistics } from '../../lib/formats/statistics-trust.js';
import { queryRows, sqlIdent, sqlString, withDuckDB } from '../writers/index.js';
import { rewriteFile } from './rewrite-helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rewritten-statistics-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EXTREME_ROW = 12_345;
const COLUMNS = ['amount', 'price', 'small', 'u', 'at'];
/** A DuckDB value as the gate's bound is compared: a double, epoch ms for time (quarters keep decimals exact in doubles). */
const asNumber = (column: string, sql: string) => (column === 'at' ? `epoch_ms(${sql})` : `CAST(${sql} AS DOUBLE)`);

describe('statistics of a file the gate rewrote', () => {
  it('are believed, and are the bounds DuckDB finds in each row group once the row holding every extreme is withheld', async () => {
    const source = join(dir, 'source.parquet');
    const out = join(dir, 'out.parquet');
    const extreme = (value: string, otherwise: string) => `CASE WHEN i = ${EXTREME_ROW} THEN ${value} ELSE ${otherwise} END`;
    await withDuckDB((connection) => connection.run(`COPY (SELECT
        ${extreme('2000000000', '(hash(i) % 1000000000)')}::BIGINT AS amount,
        ${extreme('99999.5', '(i % 4000) / 4 - 500')}::DECIMAL(38,10) AS price,
        ${extreme('-9999.99', '(i % 4000) / 4')}::DECIMAL(9,2) AS small,
        ${extreme('4000000000', '(hash(i) % 3000000000)')}::UINTEGER AS u,
        ${extreme(`TIMESTAMPTZ '2027-03-01 00:00:00+00'`, `TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_seconds((hash(i) % 10000000)::BIGINT)`)} AS "at"
      FROM range(40000) t(i)) TO ${sqlString(source)} (FORMAT parquet, ROW_GROUP_SIZE 10000)`));
    await rewriteFile('parquet', source, [EXTREME_ROW], out);

    const metadata = parquetMetadata((await readFile(out)).buffer.slice(0), { parsers: NUMERIC_TIME });
    const writer = parseCreatedBy(metadata.created_by);
    const elements = new Map(parquetSchema(metadata).children.map((child) => [child.element.name, child.element] as [string, SchemaElement]));
    let rowStart = 0;
    const footer: Record<string, unknown>[] = [];
    for (const group of metadata.row_groups) {
      const rows = Number(group.num_rows);
      const bounds: Record<string, unknown> = { start: rowStart };
      for (const chunk of group.columns) {
        const name = chunk.meta_data!.path_in_schema[0]!;
        const element = elements.get(name)!;
        expect(statisticsTrust(chunk.meta_data!.statistics!, element, writer, rows), name).toEqual({ bounds: true, nullCount: true });
        const stats = chunkStatistics(trustedStatistics(chunk.meta_data!.statistics, element, writer, rows), element)!;
        bounds[`${name}_min`] = Number(stats.min);
        bounds[`${name}_max`] = Number(stats.max);
      }
      footer.push(bounds);
      rowStart += rows;
    }
    // Each row's group, by the starts the rewritten footer gives (withholding a row shortens its group).
    const starts = footer.map((bounds) => bounds.start as number);
    const groupStart = `CASE ${starts.slice(1).reverse().map((start) => `WHEN file_row_number >= ${start} THEN ${start}`).join(' ')} ELSE 0 END`;
    const oracle = await withDuckDB((connection) => queryRows(connection, `SELECT (${groupStart})::INTEGER AS start,
        ${COLUMNS.map((c) => `${asNumber(c, `min(${sqlIdent(c)})`)} AS ${c}_min, ${asNumber(c, `max(${sqlIdent(c)})`)} AS ${c}_max`).join(', ')}
      FROM read_parquet(${sqlString(out)}, file_row_number = true) GROUP BY 1 ORDER BY 1`));
    expect(footer.length).toBe(4);
    expect(footer).toEqual(oracle.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)]))));
  });
});
