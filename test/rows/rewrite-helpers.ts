import { readFile, writeFile } from 'node:fs/promises';
import { parquetMetadata, type FileMetaData } from 'hyparquet';
import type { DuckDBConnection } from '@duckdb/node-api';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openTable } from '../../lib/formats/open-table.js';
import { writableCodec } from '../../lib/rows/parquet-codecs.js';
import { rewriteWithout, type RewriteOptions } from '../../lib/rows/rewrite-file.js';
import type { DataFormat } from '../../lib/contract/model.js';
import { queryRows, sqlString } from '../writers/index.js';

export interface Written {
  readonly bytes: Uint8Array;
  readonly chunkSizes: readonly number[];
  readonly notes: readonly string[];
}

/** Takes every chunk of a rewrite, keeping their sizes. */
export async function collect(chunks: AsyncIterable<Uint8Array>): Promise<{ bytes: Uint8Array; chunkSizes: number[] }> {
  const parts: Uint8Array[] = [];
  for await (const chunk of chunks) parts.push(chunk);
  return { bytes: Buffer.concat(parts), chunkSizes: parts.map((p) => p.length) };
}

/** Rewrites `path` without `rows` into `out`. */
export async function rewriteFile(format: DataFormat, path: string, rows: readonly number[], out: string, options: RewriteOptions = {}): Promise<Written> {
  const result = await rewriteWithout(format, byteSourceFromBytes(await readFile(path)), rows, { path, ...options });
  const written = await collect(result.chunks);
  await writeFile(out, written.bytes);
  return { ...written, notes: result.notes };
}

/**
 * Rows (in order, each with its position) that differ between the source minus `rows` and the
 * output, DuckDB's values compared and, to see -0, NaN and every digit, their text as well.
 */
export async function differingRows(connection: DuckDBConnection, source: string, rows: readonly number[], output: string): Promise<number> {
  // The source is read whole first: a filter on file_row_number pushed into DuckDB's scan misreads some corpus files.
  await connection.run(`CREATE OR REPLACE TEMP TABLE rows_source AS SELECT * FROM read_parquet(${sqlString(source)}, file_row_number = true)`);
  const withheld = rows.length > 0 ? `WHERE file_row_number NOT IN (SELECT unnest([${rows.join(',')}]::BIGINT[]))` : '';
  const numbered = (from: string, where: string) => `(SELECT row_number() OVER (ORDER BY file_row_number) AS k, * EXCLUDE (file_row_number) FROM ${from} ${where})`;
  const a = numbered('rows_source', withheld);
  const b = numbered(`read_parquet(${sqlString(output)}, file_row_number = true)`, '');
  const both = (x: string, y: string) => `SELECT count(*) AS n FROM ((SELECT * FROM ${x} EXCEPT ALL SELECT * FROM ${y}) UNION ALL (SELECT * FROM ${y} EXCEPT ALL SELECT * FROM ${x}))`;
  const asText = (x: string) => `(SELECT COLUMNS(*)::VARCHAR FROM ${x})`;
  const [values, texts] = await Promise.all([queryRows(connection, both(a, b)), queryRows(connection, both(asText(a), asText(b)))]);
  return Number(values[0]!.n) + Number(texts[0]!.n);
}

/** DuckDB's DESCRIBE of a file: every column's name and type. */
export async function describe(connection: DuckDBConnection, path: string): Promise<string[]> {
  const rows = await queryRows(connection, `DESCRIBE SELECT * FROM read_parquet(${sqlString(path)})`);
  return rows.map((row) => `${String(row.column_name)} ${String(row.column_type)}`);
}

export async function footer(path: string): Promise<FileMetaData> {
  const bytes = await readFile(path);
  return parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), { geoparquet: false });
}

/**
 * For each output row group (the source's groups that keep a row, in order) and chunk: whether
 * its codec is the source chunk's (or the documented fallback) and it has statistics iff the
 * source chunk has. Returns the mismatches, described.
 */
export function chunkMismatches(source: FileMetaData, output: FileMetaData, keptGroups: readonly number[]): string[] {
  const problems: string[] = [];
  if (output.row_groups.length !== keptGroups.length) return [`${output.row_groups.length} row groups, expected ${keptGroups.length}`];
  output.row_groups.forEach((group, g) => {
    const from = source.row_groups[keptGroups[g]!]!;
    group.columns.forEach((chunk, c) => {
      const was = from.columns[c]!.meta_data!;
      const now = chunk.meta_data!;
      const name = now.path_in_schema.join('.');
      if (now.codec !== writableCodec(was.codec).codec) problems.push(`group ${g} ${name}: ${now.codec}, source ${was.codec}`);
      if (now.type !== was.type) problems.push(`group ${g} ${name}: type ${now.type}, source ${was.type}`);
      if (Boolean(now.statistics) !== Boolean(was.statistics && Object.values(was.statistics).some((v) => v !== undefined))) problems.push(`group ${g} ${name}: statistics ${Boolean(now.statistics)}`);
    });
  });
  return problems;
}

/** Every readable column as the checker's reader decodes it, row by row. */
export async function checkerRows(path: string): Promise<{ columns: string[]; rows: unknown[][] }> {
  const table = openTable('parquet', byteSourceFromBytes(await readFile(path)));
  const schema = await table.schema();
  if (schema.kind !== 'typed') throw new Error('not typed');
  const columns = schema.columns.filter((c) => c.type.kind !== 'unsupported').map((c) => c.name);
  const rows: unknown[][] = [];
  for await (const batch of table.batches(columns)) {
    for (let i = 0; i < batch.rowCount; i++) rows.push(columns.map((name) => plain(batch.columns.get(name)?.[i])));
  }
  return { columns, rows };
}

/** A value compared by identity of its bits: -0 apart from 0, bytes by content. */
function plain(value: unknown): unknown {
  if (value instanceof Uint8Array) return `bytes:${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'number' && Object.is(value, -0)) return '-0';
  if (typeof value === 'number' && Number.isNaN(value)) return 'NaN';
  return value;
}

/** The source groups that keep at least one row after withholding `rows`. */
export function keptGroups(metadata: FileMetaData, rows: readonly number[]): number[] {
  const withheld = new Set(rows);
  const kept: number[] = [];
  let start = 0;
  metadata.row_groups.forEach((group, g) => {
    const count = Number(group.num_rows);
    let all = count > 0;
    for (let r = start; r < start + count && all; r++) all = withheld.has(r);
    if (count > 0 && !all) kept.push(g);
    start += count;
  });
  return kept;
}

/** Rows to withhold from a file: none, a spread (first, last, some between), a whole group, all. */
export function withholdCases(metadata: FileMetaData): { label: string; rows: number[] }[] {
  const sizes = metadata.row_groups.map((g) => Number(g.num_rows));
  const total = sizes.reduce((a, b) => a + b, 0);
  const spread = [...new Set([0, 1, 37, Math.floor(total / 2), total - 2, total - 1].filter((r) => r >= 0 && r < total))].sort((a, b) => a - b);
  const cases = [{ label: 'none', rows: [] as number[] }, { label: 'first, last and some between', rows: spread }];
  if (sizes.length >= 2) {
    const start = sizes[0]!;
    cases.push({ label: 'the whole second row group and the first row', rows: [0, ...Array.from({ length: sizes[1]! }, (_, i) => start + i)] });
  }
  cases.push({ label: 'every row', rows: Array.from({ length: total }, (_, i) => i) });
  return cases;
}
