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
  const value = temporal && knobs.micros ? `${ident} + to_microseconds(CAST(hash(${ident}) % 1000 AS BIGINT))` : ident;
  if (column.type === 'timestamp_ntz' && knobs.wallClock) return `CAST(${value} AS ${knobs.wallClock}) AS ${ident}`;
  return value === ident ? ident : `${value} AS ${ident}`;
}

/**
 * A DuckDB Parquet writer with seeded knobs (codec, row-group size, page format, dictionary,
 * wall-clock units, sub-millisecond timestamps): combinations the matrix's fixed variants do not draw.
 */
export function drawDuckdbParquet(r: Random): WriterVariant {
  const codec = r.pick(['snappy', 'zstd', 'gzip', 'uncompressed', 'lz4', 'brotli']);
  const rowGroup = r.pick([2048, 4096, 10_000, 1_000_000]);
  const version = r.pick(['V1', 'V2']);
  const dictionary = r.chance(0.25) ? ', DICTIONARY_SIZE_LIMIT 1' : '';
  const settings = `COMPRESSION ${codec}, ROW_GROUP_SIZE ${rowGroup}, PARQUET_VERSION ${version}${dictionary}`;
  const wallClock = r.pick([undefined, undefined, 'TIMESTAMP_S', 'TIMESTAMP_MS', 'TIMESTAMP_NS'] as const);
  const micros = r.chance(0.3);
  const knobs = [...(dictionary ? ['nodict'] : []), ...(wallClock ? [`ntz-${wallClock.slice(10).toLowerCase()}`] : []), ...(micros ? ['micros'] : [])];
  return {
    id: [`duckdb-seeded-${codec}-rg${rowGroup}-${version.toLowerCase()}`, ...knobs].join('-'),
    writer: 'duckdb',
    settings: `${settings}${wallClock ? `, timestamp_ntz as ${wallClock}` : ''}${micros ? ', sub-millisecond timestamps' : ''}`,
    write: (table, path) => copyTable(table, path, `FORMAT parquet, ${settings}`, { wallClock, micros }),
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
