import { readFile } from 'node:fs/promises';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { rewriteWithout } from '../../lib/rows/rewrite-file.js';
import { sqlString } from '../writers/index.js';
import { EXACT_WRITERS } from './exact-table.js';
import { chunkMismatches, describe as describeFile, differingRows, footer, keptGroups, rewriteFile, withholdCases } from './rewrite-helpers.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

const session = useDuckDBScratch('rows-exact-');

describe.each(EXACT_WRITERS)('values past what a double holds, written by $id', (writer) => {
  it('come back bit for bit, in order, without the withheld rows', async () => {
    const source = session.path(`${writer.id}.parquet`);
    await writer.write(session.connection, source, session.path(`${writer.id}.staging.parquet`));
    const sourceFooter = await footer(source);
    for (const { label, rows } of withholdCases(sourceFooter)) {
      const out = session.path(`${writer.id}-${label.replaceAll(' ', '-')}.parquet`);
      await rewriteFile('parquet', source, rows, out);
      expect(await differingRows(session.connection, source, rows, out), label).toBe(0);
      expect(await describeFile(session.connection, out), label).toEqual(await describeFile(session.connection, source));
      expect(chunkMismatches(sourceFooter, await footer(out), keptGroups(sourceFooter, rows)), label).toEqual([]);
    }
  });
});

describe('a codec this process cannot write', () => {
  it('is written as SNAPPY, and the notes say so once for every column', async () => {
    const source = session.path('zstd.parquet');
    await session.connection.run(`COPY (SELECT i, i::VARCHAR AS s FROM range(0, 10) t(i)) TO ${sqlString(source)} (FORMAT parquet, COMPRESSION zstd)`);
    const { notes } = await rewriteFile('parquet', source, [1], session.path('zstd-out.parquet'));
    const zstd = 'zstdCompressSync' in zlib;
    expect(notes).toEqual(zstd ? [] : ['every column: written with SNAPPY, not ZSTD: this Node has no Zstandard compressor (zlib.zstdCompressSync came with Node 22.15)']);
    expect((await footer(session.path('zstd-out.parquet'))).row_groups[0]!.columns.map((c) => c.meta_data!.codec)).toEqual(zstd ? ['ZSTD', 'ZSTD'] : ['SNAPPY', 'SNAPPY']);
  });
});

describe('the comparison', () => {
  it('sees a row the rewrite would have changed', async () => {
    const source = session.path('oracle.parquet');
    await EXACT_WRITERS[0]!.write(session.connection, source, session.path('oracle.staging.parquet'));
    const out = session.path('oracle-out.parquet');
    await rewriteFile('parquet', source, [3], out);
    expect(await differingRows(session.connection, source, [4], out)).toBeGreaterThan(0);
  });
});

describe('a column that cannot be carried exactly', () => {
  const refusals = [
    { type: 'a MAP', sql: "MAP {'k' || (i % 3): i}", expected: /column "v" of .*\(MAP\)/ },
    { type: 'a MAP inside a struct', sql: "{'m': MAP {1: 2}}", expected: /column "v\.m" of .*\(MAP\)/ },
    { type: 'unsigned 32-bit integers in DELTA_BINARY_PACKED', sql: '(4294967295 - i)::UINTEGER', options: ', PARQUET_VERSION v2', expected: /column "v" of .*DELTA_BINARY_PACKED/ },
  ];
  it.each(refusals)('refuses $type before any byte is written, naming the column and the type', async ({ sql, expected, options = '' }) => {
    const source = session.path('refused.parquet');
    await session.connection.run(`COPY (SELECT i, ${sql} AS v FROM range(0, 10) t(i)) TO ${sqlString(source)} (FORMAT parquet${options})`);
    const attempt = rewriteWithout('parquet', byteSourceFromBytes(await readFile(source)), [1], { path: 'refused.parquet' });
    await expect(attempt).rejects.toMatchObject({ name: 'GateError', code: 'unsupported', message: expect.stringMatching(expected) });
  });

  it('refuses row numbers the file does not have', async () => {
    const source = session.path('short.parquet');
    await session.connection.run(`COPY (SELECT i FROM range(0, 10) t(i)) TO ${sqlString(source)} (FORMAT parquet)`);
    const bytes = await readFile(source);
    await expect(rewriteWithout('parquet', byteSourceFromBytes(bytes), [3, 10])).rejects.toMatchObject({ code: 'bad_arguments' });
    await expect(rewriteWithout('parquet', byteSourceFromBytes(bytes), [4, 3])).rejects.toMatchObject({ code: 'bad_arguments' });
  });
});
