import { open } from 'node:fs/promises';
import { parquetMetadataAsync, parquetRead, type AsyncBuffer } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { localPartitionFiles } from '../lib/storage/local-files.js';

/**
 * The baseline the engine is measured against: a plain hyparquet decode of the named columns,
 * one row group at a time, timestamps kept as numbers, values thrown away. One thread, files in
 * name order.
 *
 * usage: plain-decode <col,col,...> <file.parquet|dir>...
 */
const [columnList, ...paths] = process.argv.slice(2);
if (!columnList || paths.length === 0) throw new Error('usage: plain-decode <col,col,...> <file.parquet|dir>...');
const columns = columnList.split(',');
const parsers = { timestampFromMicroseconds: (v: bigint) => Number(v) / 1000, timestampFromMilliseconds: (v: bigint) => Number(v) };
let rows = 0;
let values = 0;
for (const { path } of await localPartitionFiles(paths)) {
  const handle = await open(path, 'r');
  const { size } = await handle.stat();
  const file: AsyncBuffer = {
    byteLength: size,
    async slice(start, end = size) {
      const buffer = new Uint8Array(end - start);
      await handle.read(buffer, 0, buffer.length, start);
      return buffer.buffer;
    },
  };
  const metadata = await parquetMetadataAsync(file);
  let rowStart = 0;
  for (const group of metadata.row_groups) {
    const rowEnd = rowStart + Number(group.num_rows);
    await parquetRead({ file, metadata, columns, rowStart, rowEnd, compressors, parsers, onChunk: (chunk) => void (values += chunk.columnData.length) });
    rowStart = rowEnd;
  }
  rows += rowStart;
  await handle.close();
}
process.stdout.write(`${JSON.stringify({ rows, values })}\n`);

