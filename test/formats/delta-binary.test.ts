import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaUnpack32 } from '../../lib/formats/delta-binary.js';
import { deltaRun } from '../../lib/formats/delta-value-runs.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import { contractOfColumns, counts, memoryFile, validate } from '../fixtures/partition.js';
import { joinFile, parseLayout, columnChunks } from '../fuzz/parquet-layout.js';
import { child, type TList } from '../fuzz/thrift-compact.js';
import { openDuckDB, queryRows, sqlString } from '../writers/duckdb-session.js';

/**
 * DuckDB writes an unsigned 32-bit column with PARQUET_VERSION v2 as DELTA_BINARY_PACKED, its
 * first value and deltas in 64-bit arithmetic: 3e9 is stored as 3e9, a 33-bit zigzag. hyparquet
 * 1.33 read that first value in 32 bits and shifted every value of the page by 2^31 (issue 27:
 * the gate passed 110,846 rows above `max: 3000000000` with an observed max of 1,352,095,493).
 */
let dir: string;
let session: Awaited<ReturnType<typeof openDuckDB>>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-delta-binary-'));
  session = await openDuckDB();
});

afterAll(() => {
  session?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function duckdbFile(name: string, select: string, options = 'PARQUET_VERSION v2'): Promise<string> {
  const path = join(dir, name);
  await session.connection.run(`COPY (${select}) TO ${sqlString(path)} (FORMAT parquet, ${options})`);
  return path;
}

const maxContract = contractOfColumns('u32', '{ name: v, type: int64, required: true, max: 3000000000 }');

describe('UINTEGER past 2^31 in DuckDB v2 delta pages', () => {
  it('counts every value above the bound and reports the range DuckDB reads (300k rows, one row group)', async () => {
    const path = await duckdbFile('u32.parquet', 'SELECT (2147483648 + i * 4507)::UINTEGER AS v FROM range(300000) t(i)');
    const [oracle] = await queryRows(session.connection, `SELECT count(*) FILTER (WHERE v > 3000000000) AS above, min(v)::VARCHAR AS min, max(v)::VARCHAR AS max FROM ${sqlString(path)}`);
    const [encoding] = await queryRows(session.connection, `SELECT encodings FROM parquet_metadata(${sqlString(path)})`);
    expect(encoding).toEqual({ encodings: 'DELTA_BINARY_PACKED' });
    const report = await validate(maxContract, [memoryFile('dt=2026-11-29/u32.parquet', readFileSync(path))]);
    expect(report.status).toBe('fail');
    expect(counts(report)).toEqual({ 'max:v': oracle!.above });
    expect(report.observed?.[0]).toMatchObject({ min: oracle!.min, max: oracle!.max });
  });

  it('reads the same values in row groups small enough to decode whole', async () => {
    const path = await duckdbFile('u32-groups.parquet', 'SELECT (4294967295 - i * 104729)::UINTEGER AS v FROM range(40000) t(i)', 'PARQUET_VERSION v2, ROW_GROUP_SIZE 2048');
    const [oracle] = await queryRows(session.connection, `SELECT count(*) FILTER (WHERE v > 3000000000) AS above, sum(v)::VARCHAR AS total FROM ${sqlString(path)}`);
    const table = openParquetFile(byteSourceFromBytes(readFileSync(path)));
    let total = 0n;
    for await (const batch of table.batches(['v'])) for (const v of Array.from(batch.columns.get('v')!)) total += BigInt(v as number);
    expect(String(total)).toBe(oracle!.total);
    const report = await validate(maxContract, [memoryFile('dt=2026-11-29/u32.parquet', readFileSync(path))]);
    expect(counts(report)).toEqual({ 'max:v': oracle!.above });
  });

  it('refuses, naming the reason, a delta page whose footer hides it from the reader that decodes it right', async () => {
    const path = await duckdbFile('u32-hidden.parquet', 'SELECT (3000000000 + i * 7)::UINTEGER AS v FROM range(4000) t(i)', 'PARQUET_VERSION v2, ROW_GROUP_SIZE 2048');
    const layout = parseLayout(readFileSync(path));
    // The chunk claims PLAIN only: the small group goes to hyparquet, which would misread its pages.
    for (const chunk of columnChunks(layout.footer)) {
      (child(chunk, 3)!.get(2)!.value as TList).items = [0];
      child(chunk, 3)!.delete(13);
    }
    const table = openParquetFile(byteSourceFromBytes(joinFile(layout.body, layout.footer)));
    await expect(async () => {
      for await (const batch of table.batches(['v'])) void batch;
    }).rejects.toThrow(/^cannot decode rows 0-2047: delta values: its first value has more than 32 bits, which hyparquet 1\.33 misreads in a 32-bit delta stream/);
  });
});

/** A DELTA_BINARY_PACKED stream as the format lays it out: header, then blocks of one miniblock of 32 values. */
function deltaStream(first: bigint, blocks: { minDelta: bigint; width: number; residuals: bigint[] }[], count: number): Uint8Array {
  const out: number[] = [];
  const varint = (value: bigint) => {
    do {
      const low = Number(value & 0x7fn);
      value >>= 7n;
      out.push(value > 0n ? low | 0x80 : low);
    } while (value > 0n);
  };
  const zigzag = (value: bigint) => varint(value >= 0n ? value << 1n : ((-value) << 1n) - 1n);
  varint(128n); varint(4n); varint(BigInt(count)); zigzag(first);
  for (const block of blocks) {
    zigzag(block.minDelta);
    out.push(block.width, 0, 0, 0);
    let bits = 0n;
    block.residuals.forEach((r, i) => (bits |= r << BigInt(i * block.width)));
    for (let i = 0; i < 32 * block.width / 8; i++) out.push(Number((bits >> BigInt(8 * i)) & 0xffn));
  }
  return Uint8Array.from(out);
}

describe('deltaUnpack32', () => {
  it('wraps a first value and deltas wider than 32 bits to the 32-bit pattern, at bit widths up to 64', () => {
    const residuals = Array.from({ length: 32 }, (_, i) => (BigInt(i) * 0x0123456789abcdefn) & 0xffffffffffffffffn);
    const first = 4294967295n;
    const minDelta = -(2n ** 62n) + 12345n;
    const stream = deltaStream(first, [{ minDelta, width: 64, residuals }], 33);
    const out = new Int32Array(33);
    expect(deltaUnpack32(stream, 0, 33, out)).toBe(stream.length);
    // The format's arithmetic, in 64 bits and then wrapped: the values a 64-bit reader would see, as int32.
    const expected = [first];
    for (const r of residuals) expected.push(expected.at(-1)! + minDelta + r);
    expect(Array.from(new Uint32Array(out.buffer))).toEqual(expected.map((v) => Number(BigInt.asUintN(32, v))));
  });

  it('refuses a stream that runs past the end of its page rather than read zeros', () => {
    const stream = deltaStream(1n, [{ minDelta: 0n, width: 33, residuals: Array.from({ length: 32 }, () => 1n) }], 33);
    expect(() => deltaUnpack32(stream.subarray(0, stream.length - 8), 0, 33, new Int32Array(33))).toThrow(/runs past the end of its page at value 1/);
  });
});

describe('deltaRun', () => {
  it('refuses a stream that declares fewer values than the page asks of it, rather than leave rows without one', async () => {
    const stream = deltaStream(7n, [{ minDelta: 1n, width: 0, residuals: [] }], 3);
    const decoder = { type: 'INT32', element: { name: 'v', type: 'INT32' }, schemaPath: [], parsers: {}, compressors: {}, utf8: true } as never;
    const run = deltaRun(stream, 'DELTA_BINARY_PACKED', decoder, false, 5);
    expect(Array.from(await run(2) as ArrayLike<number>)).toEqual([7, 8]);
    await expect(run(3)).rejects.toThrow(/declares 3 values but its levels store 5/);
  });
});
