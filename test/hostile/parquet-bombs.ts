import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { parseLayout, joinFile } from '../fuzz/parquet-layout.js';
import { T, encodeStruct, setInt, type TField, type TStruct } from '../fuzz/thrift-compact.js';

/**
 * Hostile Parquet files built by hand, small on disk and huge once decoded: the shapes an outside
 * review used against the reader (issue 28), and a few more. Each is a flat schema of REQUIRED
 * INT64 columns, one PLAIN data page per column, whose page header and footer say what the shape
 * needs them to say. Nothing here is large in memory: compressed streams are made a piece at a time.
 */

const KiB = 1024;
const MiB = 2 ** 20;
const CODEC = { UNCOMPRESSED: 0, SNAPPY: 1, GZIP: 2, BROTLI: 4, LZ4_RAW: 7, ZSTD: 6 } as const;

/** One column's page: its codec, compressed bytes and what its header declares. */
interface PageSpec {
  readonly codec: number;
  readonly data: Uint8Array;
  readonly declared: number;
  readonly values: number;
}

const i32 = (value: number): TField => ({ type: T.I32, value });
const i64 = (value: number | bigint): TField => ({ type: T.I64, value: BigInt(value) });
const text = (value: string): TField => ({ type: T.BINARY, value: new TextEncoder().encode(value) });
const struct = (entries: [number, TField][]): TStruct => new Map(entries);
const list = (elem: number, items: TStruct[] | number[] | Uint8Array[]): TField => ({ type: T.LIST, value: { elem, items } });

/** A file of `rows` rows in one row group, a column per page; `numRows` forges the footer's total. */
export function parquetOf(rows: number, pages: readonly PageSpec[], numRows: number | bigint = rows): Uint8Array {
  const parts: Uint8Array[] = [new TextEncoder().encode('PAR1')];
  let at = 4;
  const chunks = pages.map((page, i) => {
    const header = encodeStruct(struct([
      [1, i32(0)], [2, i32(page.declared)], [3, i32(page.data.length)],
      [5, { type: T.STRUCT, value: struct([[1, i32(page.values)], [2, i32(0)], [3, i32(3)], [4, i32(3)]]) }],
    ]));
    const start = at;
    parts.push(header, page.data);
    at += header.length + page.data.length;
    const meta = struct([
      [1, i32(2)], [2, list(T.I32, [0])], [3, list(T.BINARY, [new TextEncoder().encode(`c${i}`)])], [4, i32(page.codec)],
      [5, i64(page.values)], [6, i64(header.length + page.declared)], [7, i64(header.length + page.data.length)], [9, i64(start)],
    ]);
    return struct([[2, i64(start)], [3, { type: T.STRUCT, value: meta }]]);
  });
  const schema = [struct([[4, text('root')], [5, i32(pages.length)]]), ...pages.map((_, i) => struct([[1, i32(2)], [3, i32(0)], [4, text(`c${i}`)]]))];
  const group = struct([[1, list(T.STRUCT, chunks)], [2, i64(pages.reduce((sum, p) => sum + p.declared, 0))], [3, i64(rows)]]);
  const footer = struct([[1, i32(2)], [2, list(T.STRUCT, schema)], [3, i64(numRows)], [4, list(T.STRUCT, [group])], [6, text('contract-gate hostile corpus')]]);
  const body = concat(parts);
  return joinFile(body, footer);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * A Zstandard frame of `size` zero bytes as RLE blocks of 128 KiB (4 bytes each): `contentSize`
 * states a size in the frame header (single segment), otherwise the frame gives only a 128 KiB window.
 */
export function zstdZeros(size: number, contentSize?: number): Uint8Array {
  const blocks = Math.max(1, Math.ceil(size / (128 * KiB)));
  const header = contentSize === undefined ? [0x28, 0xb5, 0x2f, 0xfd, 0x00, 7 << 3] : [0x28, 0xb5, 0x2f, 0xfd, 0xa0, ...le32(contentSize)];
  const out = new Uint8Array(header.length + blocks * 4);
  out.set(header);
  for (let b = 0, left = size, at = header.length; b < blocks; b++, at += 4) {
    const length = Math.min(left, 128 * KiB);
    left -= length;
    const word = (length << 3) | (1 << 1) | (b === blocks - 1 ? 1 : 0);
    out.set([word & 0xff, (word >> 8) & 0xff, (word >> 16) & 0xff, 0], at);
  }
  return out;
}

const le32 = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];

/** `size` zero bytes through a zlib compressor fed a MiB at a time. */
async function streamZeros(size: number, compressor: NodeJS.ReadWriteStream): Promise<Uint8Array> {
  const zeros = new Uint8Array(MiB);
  const out: Buffer[] = [];
  compressor.on('data', (chunk: Buffer) => out.push(chunk));
  const done = new Promise((resolve, reject) => compressor.on('end', resolve).on('error', reject));
  for (let left = size; left > 0; left -= MiB) {
    if (!compressor.write(zeros.subarray(0, Math.min(MiB, left)))) await new Promise((resolve) => compressor.once('drain', resolve));
  }
  compressor.end();
  await done;
  return new Uint8Array(Buffer.concat(out));
}

export const gzipZeros = (size: number) => streamZeros(size, createGzip({ level: 9 }));
export const brotliZeros = (size: number) => streamZeros(size, createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 1 } }));

/** An LZ4 block of `size` zero bytes: one literal zero, then matches of offset 1 (at most 255 bytes a byte). */
export function lz4Zeros(size: number): Uint8Array {
  const out: number[] = [0x1f, 0x00, 0x01, 0x00];
  // Token: 1 literal, match length 15+ (extended); offset 1; then the length's extension bytes.
  let match = size - 1 - 5 - 4;
  for (match -= 15; match >= 255; match -= 255) out.push(255);
  out.push(match);
  out.push(0x50, 0, 0, 0, 0, 0); // the last five bytes are literals, as the format requires
  return new Uint8Array(out);
}

/** `columns` honest pages of zeros, `rows` values each: memory only when decoded. */
function zeroPages(columns: number, rows: number, codec: number, data: Uint8Array, declared = rows * 8): PageSpec[] {
  return Array.from({ length: columns }, () => ({ codec, data, declared, values: rows }));
}

/** A small honest file of one 1,000-row group (hyparquet-writer), its footer's num_rows forged. */
function forgedNumRows(numRows: bigint): Uint8Array {
  const honest = new Uint8Array(parquetWriteBuffer({ columnData: [{ name: 'id', data: BigInt64Array.from({ length: 1000 }, (_, i) => BigInt(i)), type: 'INT64' }] }));
  const layout = parseLayout(honest);
  setInt(layout.footer, 3, numRows, T.I64);
  return joinFile(layout.body, layout.footer);
}

/** A bomb and how to build it: some take a second or two of compressing zeros. */
export interface BombRecipe {
  readonly name: string;
  readonly columns: readonly string[];
  /** What the report must say of it: a fragment of its unreadable message, or `read` for a file that stays bounded and reads. */
  readonly expect: RegExp | 'read';
  /** Its own peak-RSS bound, for a file whose need the contract's width sets (the gate's Lambda has 1,769 MB). @default PEAK_RSS_MB */
  readonly peakRssMb?: number;
  readonly build: () => Promise<Uint8Array>;
}

const WIDE_ROWS = 16 * MiB;
const LIE_ROWS = 8 * KiB;
const ORDINARY_ROWS = 128 * KiB;
const columnsOf = (n: number) => Array.from({ length: n }, (_, i) => `c${i}`);
const lying = (codec: number, data: Uint8Array) => parquetOf(LIE_ROWS, [{ codec, data, declared: LIE_ROWS * 8, values: LIE_ROWS }]);
const MORE = /row group 0, column "c0", page at byte 0 of its chunk: its \w+ data inflates to more than the 65536 bytes its page header declares/;
const LESS = /row group 0, column "c0", page at byte 0 of its chunk: its \w+ data inflates to 32768 bytes, not the 65536 bytes its page header declares/;
const BUDGET = /row group 0: column "c\d+" needs a page of 128 MiB decoded beside .* over the 256 MiB budget/;
const wideZstd = () => zstdZeros(WIDE_ROWS * 8, WIDE_ROWS * 8);

/** The hostile corpus: the review's shapes (issue 28) first, then ours. */
export const BOMBS: readonly BombRecipe[] = [
  { name: 'wide zstd zeros, 8 columns', columns: columnsOf(8), expect: BUDGET, build: async () => parquetOf(WIDE_ROWS, zeroPages(8, WIDE_ROWS, CODEC.ZSTD, wideZstd())) },
  { name: 'wide zstd zeros, 16 columns', columns: columnsOf(16), expect: BUDGET, build: async () => parquetOf(WIDE_ROWS, zeroPages(16, WIDE_ROWS, CODEC.ZSTD, wideZstd())) },
  { name: 'wide brotli zeros, 8 columns', columns: columnsOf(8), expect: BUDGET, build: async () => parquetOf(WIDE_ROWS, zeroPages(8, WIDE_ROWS, CODEC.BROTLI, await brotliZeros(WIDE_ROWS * 8))) },
  { name: 'gzip page declaring 64 KiB, inflating to 256 MiB', columns: ['c0'], expect: MORE, build: async () => lying(CODEC.GZIP, await gzipZeros(256 * MiB)) },
  { name: 'zstd page declaring 64 KiB, inflating to 256 MiB', columns: ['c0'], expect: MORE, build: async () => lying(CODEC.ZSTD, zstdZeros(256 * MiB)) },
  { name: 'footer num_rows 0 beside a 1,000-row group', columns: ['id'], expect: /its num_rows says the file holds 0 rows, but its 1 row groups hold 1000/, build: async () => forgedNumRows(0n) },
  { name: 'footer num_rows 2^62 beside a 1,000-row group', columns: ['id'], expect: /its num_rows says the file holds 4611686018427387904 rows/, build: async () => forgedNumRows(2n ** 62n) },
  { name: 'zstd pages of 128 MiB zeros past 8,192 values, 8 columns (a group read whole)', columns: columnsOf(8), expect: 'read', build: async () => parquetOf(LIE_ROWS, zeroPages(8, LIE_ROWS, CODEC.ZSTD, wideZstd(), WIDE_ROWS * 8)) },
  { name: 'brotli page declaring 64 KiB, inflating to 256 MiB', columns: ['c0'], expect: MORE, build: async () => lying(CODEC.BROTLI, await brotliZeros(256 * MiB)) },
  { name: 'lz4 page declaring 64 KiB, inflating to 8 MiB', columns: ['c0'], expect: MORE, build: async () => lying(CODEC.LZ4_RAW, lz4Zeros(8 * MiB)) },
  { name: 'gzip page declaring 64 KiB, inflating to 32 KiB', columns: ['c0'], expect: LESS, build: async () => lying(CODEC.GZIP, await gzipZeros(32 * KiB)) },
  { name: 'zstd page declaring 64 KiB, inflating to 32 KiB', columns: ['c0'], expect: LESS, build: async () => lying(CODEC.ZSTD, zstdZeros(32 * KiB)) },
  // Not a bomb: a contract of 300 columns and writers' 1 MiB pages hold 300 MiB, which the budget must let through.
  { name: 'zstd pages of 1 MiB, 300 columns (a wide ordinary file)', columns: columnsOf(300), expect: 'read', peakRssMb: 1024, build: async () => parquetOf(ORDINARY_ROWS, zeroPages(300, ORDINARY_ROWS, CODEC.ZSTD, zstdZeros(ORDINARY_ROWS * 8, ORDINARY_ROWS * 8))) },
];
