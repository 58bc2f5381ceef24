import { writeFile } from 'node:fs/promises';
import { parquetWriteBuffer, type ColumnSource } from 'hyparquet-writer';
import type { LogicalTable, WriterVariant } from './logical-table.js';
import { hyparquetData, hyparquetElement } from './hyparquet-schema.js';
import { writeAtomically } from './write-file.js';

type WriteOptions = Omit<Parameters<typeof parquetWriteBuffer>[0], 'columnData' | 'schema'>;
type ColumnOptions = Pick<ColumnSource, 'encoding' | 'columnIndex'>;

/** Writes `table` with hyparquet-writer 0.17.0, the writer of every older fixture in this project. */
export async function writeWithHyparquet(table: LogicalTable, path: string, options: WriteOptions, column: ColumnOptions = {}): Promise<void> {
  const schema = [{ name: 'root', num_children: table.columns.length }, ...table.columns.map(hyparquetElement)];
  const columnData: ColumnSource[] = table.columns.map((c) => ({
    name: c.name,
    data: hyparquetData(c),
    nullable: c.nullable,
    ...column,
    // A dictionary cannot hold booleans; asking for one would only be refused.
    ...(column.encoding === 'RLE_DICTIONARY' && c.type === 'boolean' ? { encoding: undefined } : {}),
  }));
  await writeAtomically(path, async (temp) => writeFile(temp, new Uint8Array(parquetWriteBuffer({ ...options, schema, columnData }))));
}

function hyparquetVariant(id: string, settings: string, options: WriteOptions, column?: ColumnOptions): WriterVariant {
  return { id: `hyparquet-${id}`, writer: 'hyparquet-writer', settings, write: (table, path) => writeWithHyparquet(table, path, options, column) };
}

export const HYPARQUET_VARIANTS: readonly WriterVariant[] = [
  hyparquetVariant('default', 'defaults (snappy, statistics, dictionary where it halves the size, groups of 1000 then 100000 rows)', {}),
  hyparquetVariant('nostats', 'statistics off', { statistics: false }),
  hyparquetVariant('plain', 'PLAIN encoding for every column, uncompressed, 8 KiB pages', { codec: 'UNCOMPRESSED', pageSize: 8192 }, { encoding: 'PLAIN' }),
  hyparquetVariant('dictionary', 'RLE_DICTIONARY forced for every column, column indexes, 5000-row groups', { rowGroupSize: 5000 }, { encoding: 'RLE_DICTIONARY', columnIndex: true }),
];
