import parquet from '@dsnp/parquetjs';
import { parquetMetadata } from 'hyparquet';
import { ByteWriter, parquetWriteBuffer, ParquetWriter } from 'hyparquet-writer';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import type { PartitionFile } from '../../lib/checks/validate-partition.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { NUMERIC_TIME } from '../../lib/formats/column-decoder.js';
import { contractOfColumns, counts, validate } from '../fixtures/partition.js';
import { queryRows, sqlString, withDuckDB } from '../writers/duckdb-session.js';
import { scratchPath } from '../writers/write-file.js';

const NOW = Date.parse('2026-11-30T05:00:00Z');
const ROWS = 30_000;
const GROUP = 10_000;

/** A file the gate reads, counting the bytes it fetches. */
function countingFile(path: string, bytes: Uint8Array): { file: PartitionFile; read: () => number } {
  let read = 0;
  const inner = byteSourceFromBytes(bytes);
  const source = { byteLength: bytes.byteLength, slice: (start: number, end?: number) => ((read += (end ?? bytes.byteLength) - start), inner.slice(start, end)) };
  return { file: { path, byteLength: bytes.byteLength, open: async () => ({ source, close: async () => {} }) }, read: () => read };
}

/**
 * Runs `sql` over `{file}`: the rows of `bytes`, copied into a DuckDB table first. DuckDB too
 * believes a Parquet footer (over the file, parquetjs's max of 9,999,000 lets it fold
 * `amount > 5e9` to false), so the oracle reads the values, and the table's statistics are its own.
 */
async function duckdbOver(bytes: Uint8Array, sql: string): Promise<Record<string, unknown>> {
  const path = scratchPath('parquet');
  try {
    await writeFile(path, bytes);
    return await withDuckDB(async (connection) => {
      await connection.run(`CREATE TABLE file AS SELECT * FROM read_parquet(${sqlString(path)})`);
      return (await queryRows(connection, sql.replace('{file}', 'file')))[0]!;
    });
  } finally {
    await rm(path, { force: true });
  }
}

/** The footer's max_value of `column` in each row group, as the gate's reader decodes it. */
function footerMaxima(bytes: Uint8Array, column: string): unknown[] {
  const metadata = parquetMetadata(bytes.slice().buffer, { parsers: NUMERIC_TIME });
  return metadata.row_groups.map((group) => group.columns.find((c) => c.meta_data?.path_in_schema[0] === column)?.meta_data?.statistics?.max_value);
}

// Amounts up to 9,999,000 with a few of 9e12, and timestamps from the 1990s (12 digits of epoch
// ms) with a few in 2027: given as text, as a JSON or CSV pipeline hands them to parquetjs, whose
// footer then keeps the greatest string ("9999000" > "9000000000000", "8…" > "18…").
const BIG_AMOUNT_ROWS = [5, 12_345, 29_999];
const FUTURE_ROWS = [100, 10_100, 20_100, 25_000];
const NINETIES = Date.parse('1995-01-01T00:00:00Z');
const IN_2027 = Date.parse('2027-03-01T00:00:00Z');

async function parquetjsFile(): Promise<Uint8Array> {
  const schema = new parquet.ParquetSchema({ amount: { type: 'INT64' }, at: { type: 'TIMESTAMP_MILLIS' } });
  const path = scratchPath('parquet');
  try {
    const writer = await parquet.ParquetWriter.openFile(schema, path, { rowGroupSize: GROUP });
    for (let i = 0; i < ROWS; i++) {
      const amount = BIG_AMOUNT_ROWS.includes(i) ? 9_000_000_000_000 : (i % GROUP) * 1_000;
      const at = FUTURE_ROWS.includes(i) ? IN_2027 : NINETIES + (i % GROUP) * 10_800_000;
      await writer.appendRow({ amount: String(amount), at: String(at) });
    }
    await writer.close();
    return new Uint8Array(await readFile(path));
  } finally {
    await rm(path, { force: true });
  }
}

const AMOUNT_AND_TIME = contractOfColumns('payments', '{ name: amount, type: int64, max: 5000000000 }', '{ name: at, type: timestamp, not_in_future: true }');

describe('footer statistics from a writer known to order them wrongly', () => {
  it('decodes a parquetjs file whose string-ordered footer hides 9e12 amounts and 2027 timestamps, and counts them as DuckDB does', async () => {
    const bytes = await parquetjsFile();
    // The scenario holds: every row group's footer claims a max inside the contract.
    expect(footerMaxima(bytes, 'amount').every((max) => Number(max) <= 5e9)).toBe(true);
    expect(footerMaxima(bytes, 'at').every((max) => Number(max) <= NOW)).toBe(true);
    const report = await validate(AMOUNT_AND_TIME, [countingFile('payments.parquet', bytes).file], NOW);
    const oracle = await duckdbOver(bytes, `SELECT sum(CASE WHEN amount > 5000000000 THEN 1 ELSE 0 END)::INTEGER AS amount,
      sum(CASE WHEN "at" > TIMESTAMP '2026-11-30 05:00:00' THEN 1 ELSE 0 END)::INTEGER AS at FROM {file}`);
    expect(report.status).toBe('fail');
    expect(counts(report)).toEqual({ 'max:amount': oracle.amount, 'not_in_future:at': oracle.at });
    expect(oracle).toEqual({ amount: BIG_AMOUNT_ROWS.length, at: FUTURE_ROWS.length });
  });
});

/** One row group of INT64 `n` = 0..GROUP-1 with 9e12 at row 4_242, its footer then given `forged` bounds. */
function forgedFooter(forged: { min_value: bigint; max_value: bigint }): Uint8Array {
  const out = new ByteWriter();
  const writer = new ParquetWriter({ writer: out, schema: [{ name: 'root', num_children: 1 }, { name: 'n', type: 'INT64', repetition_type: 'REQUIRED' }] });
  const data = Array.from({ length: GROUP }, (_, i) => (i === 4_242 ? 9_000_000_000_000n : BigInt(i)));
  writer.write({ columnData: [{ name: 'n', data }], rowGroupSize: GROUP });
  writer.row_groups[0]!.columns[0]!.meta_data!.statistics = { null_count: 0n, ...forged };
  writer.finish();
  return new Uint8Array(out.getBuffer());
}

describe('footer statistics that contradict themselves', () => {
  const BOUNDED = contractOfColumns('numbers', '{ name: n, type: int64, min: 0, max: 5000000000 }');

  it('decodes a row group whose footer states min above max, and counts the value it hid as DuckDB does', async () => {
    const bytes = forgedFooter({ min_value: 4_000_000_000n, max_value: 1n });
    const report = await validate(BOUNDED, [countingFile('numbers.parquet', bytes).file], NOW);
    const oracle = await duckdbOver(bytes, 'SELECT sum(CASE WHEN n > 5000000000 THEN 1 ELSE 0 END)::INTEGER AS over, count(*)::INTEGER AS rows FROM {file}');
    expect(oracle).toEqual({ over: 1, rows: GROUP });
    expect(counts(report)).toEqual({ 'max:n': oracle.over });
  });

  it('settles the same row group from a footer whose bounds are in order, however wrong: the writer list is what guards those', async () => {
    // A pass over a chunk that holds 9e12 shows its pages were never decoded.
    const report = await validate(BOUNDED, [countingFile('numbers.parquet', forgedFooter({ min_value: 0n, max_value: 1n })).file], NOW);
    expect(report.status).toBe('pass');
  });
});

describe('footer statistics from a trusted writer', () => {
  async function duckdbFile(plant: string): Promise<Uint8Array> {
    const path = scratchPath('parquet');
    try {
      await withDuckDB((connection) => connection.run(`COPY (SELECT i AS id, (CASE WHEN ${plant} THEN 2000000000 ELSE hash(i) % 1000000000 END)::BIGINT AS amount,
        TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_seconds((hash(i * 7) % 10000000)::BIGINT) AS "at" FROM range(200000) t(i))
        TO ${sqlString(path)} (FORMAT parquet, ROW_GROUP_SIZE 20000)`));
      return new Uint8Array(await readFile(path));
    } finally {
      await rm(path, { force: true });
    }
  }
  const PROVABLE = contractOfColumns('payments', '{ name: amount, type: int64, required: true, min: 0, max: 1000000000 }', '{ name: at, type: timestamp, required: true, not_in_future: true }');

  it('settles a DuckDB file from its footer without decoding its pages', async () => {
    const bytes = await duckdbFile('false');
    const { file, read } = countingFile('payments.parquet', bytes);
    const report = await validate(PROVABLE, [file], NOW);
    expect(report.status).toBe('pass');
    expect(report.rows).toBe(200_000);
    expect(read()).toBeLessThan(bytes.byteLength * 0.1);
  });

  it('decodes only the row group whose DuckDB footer crosses a bound, and counts as DuckDB does', async () => {
    const bytes = await duckdbFile('i = 123457');
    const { file, read } = countingFile('payments.parquet', bytes);
    const report = await validate(PROVABLE, [file], NOW);
    const oracle = await duckdbOver(bytes, 'SELECT sum(CASE WHEN amount > 1000000000 THEN 1 ELSE 0 END)::INTEGER AS over FROM {file}');
    expect(counts(report)).toEqual({ 'max:amount': oracle.over });
    expect(read()).toBeLessThan(bytes.byteLength * 0.25);
  });
});

describe('footer statistics and dictionaries of a writer not on the list', () => {
  const STATUS_AND_COUNT = contractOfColumns('events', '{ name: status, type: string, required: true, enum: [placed, paid] }', '{ name: n, type: int64, required: true, min: 0 }');
  /** The same rows and pages, with `createdBy` in the footer: strings from a small set (dictionary pages), counts 0..GROUP-1. */
  function eventsFile(createdBy: string): Uint8Array {
    const rows = 4 * GROUP;
    return new Uint8Array(parquetWriteBuffer({
      columnData: [{ name: 'status', data: Array.from({ length: rows }, (_, i) => (i % 3 ? 'placed' : 'paid')) }, { name: 'n', data: Array.from({ length: rows }, (_, i) => BigInt(i % GROUP)) }],
      schema: [{ name: 'root', num_children: 2 }, { name: 'status', type: 'BYTE_ARRAY', converted_type: 'UTF8', repetition_type: 'REQUIRED' }, { name: 'n', type: 'INT64', repetition_type: 'REQUIRED' }],
      rowGroupSize: GROUP, createdBy,
    }));
  }

  it('decodes what the footer would have settled, for the same verdict', async () => {
    const known = countingFile('events.parquet', eventsFile('hyparquet'));
    const unknown = countingFile('events.parquet', eventsFile('impala version 4.4.0 (build 1)'));
    const [settled, decoded] = [await validate(STATUS_AND_COUNT, [known.file], NOW), await validate(STATUS_AND_COUNT, [unknown.file], NOW)];
    expect(settled.status).toBe('pass');
    expect(decoded).toMatchObject({ status: settled.status, rows: settled.rows, violations: settled.violations });
    // Settled: the footer and the dictionary pages only; decoded: every page of both columns.
    expect(known.read()).toBeLessThan(unknown.read() / 2);
  });
});
