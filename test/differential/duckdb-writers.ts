import type { LogicalColumn, LogicalTable, WriterVariant } from '../writers/logical-table.js';
import { duckdb, sqlIdent, sqlString } from './duckdb-session.js';
import { loadTable } from './duckdb-table.js';
import type { Random } from './random-tools.js';

interface CopyKnobs {
  /** The session zone, in which CSV and JSON render TIMESTAMPTZ values. */
  readonly timeZone?: string;
  /** Wall-clock columns stored in another unit than microseconds (Parquet TIMESTAMP(MILLIS|NANOS)). */
  readonly wallClock?: 'TIMESTAMP_S' | 'TIMESTAMP_MS' | 'TIMESTAMP_NS';
  /** Timestamps get 0-999 µs past their millisecond (logical tables hold whole milliseconds). */
  readonly micros?: boolean;
  /** Integer columns whose values all fit stored unsigned: UINT8/16/32, and now and then UINT64 (which no contract integer type reads). */
  readonly unsigned?: boolean;
}

/** Writes a logical table with `COPY ... TO path (options)`: the options carry the format. */
async function copyTable(table: LogicalTable, path: string, options: string, knobs: CopyKnobs = {}): Promise<void> {
  const connection = await duckdb();
  const name = await loadTable(table);
  const columns = table.columns.map((c) => selected(c, options, knobs)).join(', ');
  try {
    await connection.run(`SET TimeZone = ${sqlString(knobs.timeZone ?? 'UTC')}`);
    await connection.run(`COPY (SELECT ${columns || '*'} FROM ${name}) TO ${sqlString(path)} (${options})`);
  } finally {
    await connection.run("SET TimeZone = 'UTC'");
    await connection.run(`DROP TABLE ${name}`);
  }
}

/**
 * DuckDB writes a DECIMAL(p,p) value without its leading zero (`-.045`), which is no JSON (its own
 * reader refuses the file): JSON Lines get those columns one integer digit wider, same values.
 */
function selected(column: LogicalColumn, options: string, knobs: CopyKnobs): string {
  const ident = sqlIdent(column.name);
  const bare = column.type === 'decimal' && column.precision === column.scale && options.includes('FORMAT json');
  if (bare) return `CAST(${ident} AS DECIMAL(${column.precision! + 1},${column.scale})) AS ${ident}`;
  const temporal = column.type === 'timestamp' || column.type === 'timestamp_ntz';
  // Edge values (exact bigints) stay as drawn: a microsecond more could leave the type's range.
  const exact = column.values.some((v) => typeof v === 'bigint');
  const value = temporal && knobs.micros && !exact ? `${ident} + to_microseconds(CAST(hash(${ident}) % 1000 AS BIGINT))` : ident;
  const unit = knobs.wallClock === 'TIMESTAMP_NS' && !column.values.every(inNanosecondRange) ? undefined : knobs.wallClock;
  // DuckDB casts TIMESTAMP_NS to TIMESTAMP_S or _MS only through TIMESTAMP.
  if (column.type === 'timestamp_ntz' && unit) return `CAST(CAST(${value} AS TIMESTAMP) AS ${unit}) AS ${ident}`;
  const unsigned = knobs.unsigned ? unsignedType(column) : undefined;
  if (unsigned) return `CAST(${value} AS ${unsigned}) AS ${ident}`;
  return value === ident ? ident : `${value} AS ${ident}`;
}

const NS_LIMIT = 2n ** 63n - 2n;

function inNanosecondRange(value: unknown): boolean {
  return typeof value !== 'bigint' || (value >= -NS_LIMIT && value <= NS_LIMIT);
}

/** The narrowest unsigned type every value of an integer column fits, if any (UINT64 for an int64 column now and then). */
function unsignedType(column: LogicalColumn): string | undefined {
  if (column.type !== 'int32' && column.type !== 'int64') return undefined;
  const values = column.values.filter((v) => v !== null && v !== undefined).map((v) => BigInt(v as number | bigint));
  if (values.some((v) => v < 0n)) return undefined;
  const top = values.reduce((a, b) => (a > b ? a : b), 0n);
  if (column.type === 'int64' && hashOf(values) % 4n === 0n) return 'UBIGINT';
  if (top <= 255n) return 'UTINYINT';
  if (top <= 65_535n) return 'USMALLINT';
  return column.type === 'int64' && top < 2n ** 32n ? 'UINTEGER' : undefined;
}

function hashOf(values: readonly bigint[]): bigint {
  return values.reduce((a, b) => (a * 31n + b) % 1_000_003n, 7n);
}

/**
 * A DuckDB Parquet writer with seeded knobs (codec, row-group size, page format, dictionary,
 * wall-clock units, sub-millisecond timestamps): combinations the matrix's fixed variants do not draw.
 */
export function drawDuckdbParquet(r: Random, edges = false): WriterVariant {
  const codec = r.pick(['snappy', 'zstd', 'gzip', 'uncompressed', 'lz4', 'brotli']);
  const rowGroup = r.pick([2048, 4096, 10_000, 1_000_000]);
  // Edge values meet v2 pages (delta encodings) more often: where 32-bit decoders overflow.
  const version = r.pick(edges ? ['V1', 'V2', 'V2'] : ['V1', 'V2']);
  const dictionary = r.chance(0.25) ? ', DICTIONARY_SIZE_LIMIT 1' : '';
  const settings = `COMPRESSION ${codec}, ROW_GROUP_SIZE ${rowGroup}, PARQUET_VERSION ${version}${dictionary}`;
  const wallClock = r.pick([undefined, undefined, 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS'] as const);
  const micros = r.chance(0.3);
  const unsigned = edges && r.chance(0.4);
  const knobs = [...(dictionary ? ['nodict'] : []), ...(wallClock ? [`ntz-${wallClock.slice(10).toLowerCase()}`] : []), ...(micros ? ['micros'] : []), ...(unsigned ? ['unsigned'] : [])];
  return {
    id: [`duckdb-seeded-${codec}-rg${rowGroup}-${version.toLowerCase()}`, ...knobs].join('-'),
    writer: 'duckdb',
    settings: `${settings}${wallClock ? `, timestamp_ntz as ${wallClock}` : ''}${micros ? ', sub-millisecond timestamps' : ''}${unsigned ? ', non-negative integers as UINT8/16/32/64' : ''}`,
    write: (table, path) => copyTable(table, path, `FORMAT parquet, ${settings}`, { wallClock, micros, unsigned }),
  };
}

/** A writer whose files need another name than the format's (`part-0000.csv.gz`). */
export type NamedWriter = WriterVariant & { readonly extension?: string };

/**
 * DuckDB's CSV or JSON Lines: timestamps in a drawn session time zone (`+00`, `+05:30`, `-03:30`),
 * sometimes gzip-compressed, CSV sometimes with every value quoted.
 */
export function drawDuckdbText(format: 'csv' | 'jsonl', r: Random): NamedWriter {
  const timeZone = r.pick(['UTC', 'Europe/Berlin', 'Asia/Kolkata', 'America/St_Johns']);
  const gzip = r.chance(0.25);
  const quoteAll = format === 'csv' && r.chance(0.25);
  const options = [format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT json', ...(quoteAll ? ['FORCE_QUOTE *'] : []), ...(gzip ? ['COMPRESSION gzip'] : [])].join(', ');
  const micros = r.chance(0.3);
  const knobs = [...(quoteAll ? ['quoted'] : []), ...(gzip ? ['gzip'] : []), ...(micros ? ['micros'] : [])];
  return {
    id: [`duckdb-${format}`, timeZone.replace('/', '_').toLowerCase(), ...knobs].join('-'),
    writer: 'duckdb',
    settings: `${options}, TimeZone ${timeZone}`,
    ...(gzip ? { extension: `${format}.gz` } : {}),
    write: (table, path) => copyTable(table, path, options, { timeZone, micros }),
  };
}
