import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { queryRows, sqlIdent, sqlString, withDuckDB } from '../writers/index.js';
import { fileLayout } from './file-layout.js';
import { arrowFormats } from './heldout-js-writers.js';

/**
 * What a case says its file holds (the edge it is there to probe), checked on the written bytes,
 * so a writer upgrade that stops producing the edge fails here instead of testing nothing.
 */
export interface Claim {
  readonly says: string;
  holds(path: string): Promise<boolean> | boolean;
}

export const rowGroupsAtLeast = (n: number): Claim => ({ says: `has at least ${n} row groups`, holds: (path) => fileLayout(path).rowGroups >= n });

export const usesEncoding = (encoding: string): Claim => ({ says: `has ${encoding} data pages`, holds: (path) => fileLayout(path).encodings.has(encoding) });

export const usesPageType = (type: string): Claim => ({ says: `has ${type} pages`, holds: (path) => fileLayout(path).pageTypes.has(type) });

/** The footer's largest max for the column (read as `sqlType`) is below the largest value the file holds. */
export const statisticsHideMax = (column: string, sqlType: string): Claim => ({
  says: `has footer statistics whose max of ${column} is below the column's largest value`,
  holds: (path) => withDuckDB(async (connection) => {
    const [row] = await queryRows(connection, `SELECT (SELECT max(${sqlIdent(column)}) FROM read_parquet(${sqlString(path)})) > (SELECT max(TRY_CAST(stats_max_value AS ${sqlType})) FROM parquet_metadata(${sqlString(path)}) WHERE path_in_schema = ${sqlString(column)}) AS hidden`);
    return row!.hidden === true;
  }),
});

export const statisticsMinAboveMax = (column: string, sqlType: string): Claim => ({
  says: `has a row group whose footer says min > max for ${column}`,
  holds: (path) => withDuckDB(async (connection) => {
    const [row] = await queryRows(connection, `SELECT count(*) AS n FROM parquet_metadata(${sqlString(path)}) WHERE path_in_schema = ${sqlString(column)} AND TRY_CAST(stats_min_value AS ${sqlType}) > TRY_CAST(stats_max_value AS ${sqlType})`);
    return Number(row!.n) > 0;
  }),
});

/** The Arrow types arrow-rs was given, from the file's ARROW:schema (format strings of the C data interface). */
export const arrowTypes = (expected: Readonly<Record<string, string>>): Claim => ({
  says: `was written from Arrow types ${JSON.stringify(expected)}`,
  holds: (path) => {
    const found = arrowFormats(readFileSync(path));
    return Object.entries(expected).every(([name, format]) => found[name] === format);
  },
});

/** The file's bytes (gunzipped when gzip) contain `text` in `encoding`. */
export const textHas = (text: string, encoding: BufferEncoding = 'utf8'): Claim => ({
  says: `holds ${JSON.stringify(text)} (${encoding})`,
  holds: (path) => {
    const bytes = readFileSync(path);
    return (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).includes(Buffer.from(text, encoding));
  },
});

export const textLacks = (text: string): Claim => ({ says: `does not hold ${JSON.stringify(text)}`, holds: async (path) => !(await textHas(text).holds(path)) });

export const startsWith = (bytes: readonly number[], what: string): Claim => ({
  says: `starts with the ${what} magic bytes`,
  holds: (path) => readFileSync(path).subarray(0, bytes.length).equals(Buffer.from(bytes)),
});

export const ZSTD = startsWith([0x28, 0xb5, 0x2f, 0xfd], 'zstd');
export const GZIP = startsWith([0x1f, 0x8b], 'gzip');
