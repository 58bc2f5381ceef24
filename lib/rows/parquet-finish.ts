import type { FileMetaData } from 'hyparquet';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import { ByteWriter, type ParquetWriter } from 'hyparquet-writer';
import { writeBlooms } from 'hyparquet-writer/src/bloom.js';
import { writeIndexes } from 'hyparquet-writer/src/indexes.js';
import { writeMetadata } from 'hyparquet-writer/src/metadata.js';
import { serializeTCompactProtocol, ThriftStruct } from 'hyparquet-writer/src/thrift.js';

const MAGIC = 0x31524150;
const BYTE = 3;
const TRUE = 1;
const FALSE = 2;

type RawElement = { field_10?: { field_10?: { field_1?: number; field_2?: boolean } } };

/**
 * Ends the file as ParquetWriter.finish does, with one repair: hyparquet-writer 0.17 writes a
 * LogicalType INTEGER's bit width as a Thrift i32 where the format has an i8, and readers built
 * from the Thrift IDL (DuckDB, parquet-cpp) then refuse the whole footer. With no INTEGER in the
 * schema the writer's own footer goes out untouched; with one, the footer is serialized once more
 * with the bit width as a byte.
 */
export async function finishParquet(writer: ParquetWriter): Promise<void> {
  if (!writer.schema.some((element) => element.logical_type?.type === 'INTEGER')) return writer.finish();
  const out = writer.writer;
  writeIndexes(out, writer.pendingIndexes);
  writeBlooms(out, writer.pendingIndexes);
  const footer = new ByteWriter();
  const metadata = {
    version: 2, created_by: writer.createdBy, schema: writer.schema, num_rows: writer.num_rows,
    row_groups: writer.row_groups, key_value_metadata: writer.kvMetadata,
  } as FileMetaData;
  writeMetadata(footer, metadata as never, writer.statisticsTruncateLength);
  const bytes = footer.getBytes();
  const raw = deserializeTCompactProtocol({ view: new DataView(bytes.buffer, bytes.byteOffset, bytes.length - 4), offset: 0 }) as { field_2?: RawElement[] };
  for (const element of raw.field_2 ?? []) {
    const int = element.field_10?.field_10;
    if (int) element.field_10!.field_10 = new ThriftStruct([[1, BYTE, int.field_1], [2, int.field_2 ? TRUE : FALSE, int.field_2]]) as never;
  }
  const fixed = new ByteWriter();
  serializeTCompactProtocol(fixed, raw as never);
  out.appendBytes(fixed.getBytes());
  out.appendUint32(fixed.offset);
  out.appendUint32(MAGIC);
  return out.finish();
}
