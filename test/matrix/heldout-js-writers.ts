import { writeFile } from 'node:fs/promises';
import { ParquetSchema, ParquetWriter } from '@dsnp/parquetjs';
import pl from 'nodejs-polars';
import { readSchema, Table, wasmMemory, writeParquet, WriterPropertiesBuilder, type Schema } from 'parquet-wasm/node';
import { sqlIdent } from '../writers/index.js';
import type { HeldoutColumn, HeldoutWriter } from './heldout-case.js';
import { packageVersion } from './heldout-cache.js';
import { sourceColumns } from './heldout-writers.js';

export interface ParquetjsSettings {
  readonly rowGroupSize: number;
  readonly useDataPageV2?: boolean;
  readonly pageSize?: number;
}

/**
 * `@dsnp/parquetjs` as a Node producer uses it: rows appended one by one, INT64 and timestamps
 * given as the decimal text a JSON or CSV source holds (epoch ms or µs), a column optional unless
 * the source never holds a null in it. The writer's own footer statistics come from those values.
 */
export function parquetjsWriter(id: string, settings: ParquetjsSettings): HeldoutWriter {
  return {
    id: `parquetjs-${id}`, writer: `@dsnp/parquetjs ${packageVersion('@dsnp/parquetjs')}`, settings: JSON.stringify(settings), format: 'parquet', ext: 'parquet',
    write: async (connection, table, path) => {
      const columns = await sourceColumns(connection, table, parquetjsText);
      const fields = Object.fromEntries(table.columns.map((c, i) => [c.name, { type: c.parquetjs ?? fail(c), optional: columns[i]!.includes(null) }]));
      const writer = await ParquetWriter.openFile(new ParquetSchema(fields), path, { ...settings });
      for (let row = 0; row < table.rows; row++) {
        const record: Record<string, string> = {};
        table.columns.forEach((c, i) => {
          const value = columns[i]![row];
          if (value !== null && value !== undefined) record[c.name] = value;
        });
        await writer.appendRow(record);
      }
      await writer.close();
    },
  };
}

function parquetjsText(column: HeldoutColumn): string {
  const c = sqlIdent(column.name);
  if (column.parquetjs === 'TIMESTAMP_MILLIS') return `epoch_ms(${c})`;
  if (column.parquetjs === 'TIMESTAMP_MICROS') return `epoch_us(${c})`;
  return c;
}

function fail(column: HeldoutColumn): never {
  throw new Error(`column ${column.name} says no parquetjs type`);
}

type Configure = (builder: WriterPropertiesBuilder) => WriterPropertiesBuilder;

/**
 * An Arrow table handed to arrow-rs (parquet-wasm) as Arrow IPC bytes. apache-arrow (JS) is not
 * installed, so nodejs-polars builds the table and writes the IPC stream: strings go as
 * LargeUtf8, `dictionary` columns as Dictionary(UInt32, LargeUtf8), unsigned and decimal types as
 * UInt32, UInt64 and Decimal128(p,s), all cast from the source's exact text.
 */
export function arrowRsWriter(id: string, settings: string, configure: Configure): HeldoutWriter {
  return {
    id: `arrow-rs-${id}`, writer: `arrow-rs (parquet-wasm ${packageVersion('parquet-wasm')}) from an Arrow IPC stream`, settings, format: 'parquet', ext: 'parquet',
    write: async (connection, table, path) => {
      const columns = await sourceColumns(connection, table, (c) => sqlIdent(c.name));
      const series = table.columns.map((c, i) => pl.Series(c.name, columns[i]!, pl.Utf8).cast(polarsType(c)));
      const arrow = Table.fromIPCStream(new Uint8Array(pl.DataFrame(series).writeIPCStream()));
      await writeFile(path, writeParquet(arrow, configure(new WriterPropertiesBuilder()).build()));
    },
  };
}

function polarsType(column: HeldoutColumn): pl.DataType {
  const type = column.sqlType.toUpperCase();
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(type);
  if (decimal) return pl.Decimal(Number(decimal[1]), Number(decimal[2]));
  const types: Record<string, pl.DataType> = { VARCHAR: column.dictionary ? pl.Categorical : pl.Utf8, BIGINT: pl.Int64, INTEGER: pl.Int32, UINTEGER: pl.UInt32, UBIGINT: pl.UInt64, DOUBLE: pl.Float64 };
  const found = types[type];
  if (!found) throw new Error(`column ${column.name}: no Arrow type for ${type} here`);
  return found;
}

/**
 * The Arrow type of each column of a Parquet file as arrow-rs reads it back from the file's
 * `ARROW:schema` (what it was given), in the C data interface's format strings: `U` LargeUtf8,
 * `I` UInt32, `L` UInt64, `l` Int64, `d:38,10` Decimal128; a dictionary as `I{U}`.
 */
export function arrowFormats(parquet: Uint8Array): Record<string, string> {
  const schema: Schema = readSchema(parquet);
  const ffi = schema.toFFI();
  try {
    const memory = new DataView(wasmMemory().buffer);
    const text = (at: number) => {
      let s = '';
      for (let p = at; memory.getUint8(p) !== 0; p++) s += String.fromCharCode(memory.getUint8(p));
      return s;
    };
    // struct ArrowSchema on wasm32: format, name, metadata (pointers), flags, n_children (int64), children, dictionary.
    const describe = (at: number): [string, string] => {
      const dictionary = memory.getUint32(at + 36, true);
      return [text(memory.getUint32(at + 4, true)), `${text(memory.getUint32(at, true))}${dictionary ? `{${describe(dictionary)[1]}}` : ''}`];
    };
    const root = ffi.addr();
    const children = memory.getUint32(root + 32, true);
    return Object.fromEntries(Array.from({ length: Number(memory.getBigInt64(root + 24, true)) }, (_, i) => describe(memory.getUint32(children + 4 * i, true))));
  } finally {
    ffi.free();
    schema.free();
  }
}
