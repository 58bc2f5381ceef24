import { parquetMetadata, type FileMetaData } from 'hyparquet';
import { deserializeTCompactProtocol } from 'hyparquet/src/thrift.js';
import type { ByteSource } from '../formats/byte-source.js';
import { checkFooter } from '../formats/footer-checks.js';
import { formatBytes, MAX_FOOTER_BYTES } from '../formats/parquet-limits.js';
import { reason } from '../formats/parquet-footer.js';
import { UnreadableError } from '../formats/table-file.js';
import { checkFooterSize } from '../formats/thrift-budget.js';

const MAGIC = 0x31524150;

/** A source's footer as the file states it, and the LogicalType union field of each schema element. */
export interface SourceFooter {
  readonly metadata: FileMetaData;
  /** The Thrift field id of each schema element's LogicalType, undefined where it has none. */
  readonly logicalFieldIds: readonly (number | undefined)[];
}

/**
 * Reads the footer exactly as written: no converted type filled in from a logical one and no
 * GeoParquet marking (the checker's reader does both, parquet-footer.ts), since the rewrite must
 * write the same schema back. The footer is held to the checker's guards before it is parsed.
 */
export async function readSourceFooter(source: ByteSource): Promise<SourceFooter> {
  const size = source.byteLength;
  if (size < 12) throw new UnreadableError(`not a Parquet file: ${size} bytes`);
  const tail = new DataView(await source.slice(size - 8, size));
  if (tail.byteLength !== 8 || tail.getUint32(4, true) !== MAGIC) throw new UnreadableError('the file does not end with the Parquet magic "PAR1"');
  const length = tail.getUint32(0, true);
  if (length > size - 12 || length > MAX_FOOTER_BYTES) throw new UnreadableError(`the footer claims ${formatBytes(length)}, more than the file or the footer limit allows`);
  // A copy of its own, so its buffer is the footer and nothing else (parquetMetadata reads its end).
  const bytes = new Uint8Array(length + 8);
  bytes.set(new Uint8Array(await source.slice(size - 8 - length, size)));
  checkFooterSize(bytes.subarray(0, length));
  let metadata: FileMetaData;
  let raw: { field_2?: { field_10?: Record<string, unknown> }[] };
  try {
    metadata = parquetMetadata(bytes.buffer, { geoparquet: false });
    raw = deserializeTCompactProtocol({ view: new DataView(bytes.buffer, 0, length), offset: 0 }) as typeof raw;
  } catch (error) {
    throw new UnreadableError(`cannot read the Parquet footer: ${reason(error)}`, { cause: error });
  }
  checkFooter(metadata, size - 8 - length);
  const logicalFieldIds = metadata.schema.map((_, i) => unionField(raw.field_2?.[i]?.field_10));
  return { metadata, logicalFieldIds };
}

/** The set member of a Thrift union: its one `field_N` key. */
function unionField(union: Record<string, unknown> | undefined): number | undefined {
  const key = union === undefined ? undefined : Object.keys(union).find((k) => k.startsWith('field_'));
  return key === undefined ? undefined : Number(key.slice('field_'.length));
}
