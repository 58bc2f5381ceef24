import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parquetReadObjects } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { guardedCompressors } from '../../lib/formats/guarded-codecs.js';
import { rewriteWithout } from '../../lib/rows/rewrite-file.js';
import { sqlString } from '../writers/index.js';
import { differingRows, footer, rewriteFile, withholdCases } from './rewrite-helpers.js';
import { useDuckDBScratch } from '../writers/duckdb-scratch.js';

const CORPUS = join(process.cwd(), '..', 'shared', 'corpus', 'parquet-testing');
const present = existsSync(join(CORPUS, 'data'));
const files = (folder: string) => (present ? readdirSync(join(CORPUS, folder)).filter((f) => f.endsWith('.parquet')).map((f) => join(folder, f)) : []);

/** Files the rewrite refuses, and why: a shape or type it cannot write back bit for bit. */
const REFUSED: Readonly<Record<string, RegExp>> = {
  'data/incorrect_map_schema.parquet': /\(MAP\)/,
  'data/large_string_map.brotli.parquet': /\(MAP\)/,
  'data/map_no_value.parquet': /\(MAP\)/,
  'data/nested_maps.snappy.parquet': /\(MAP\)/,
  'data/nonnullable.impala.parquet': /\(MAP\)/,
  'data/nullable.impala.parquet': /\(MAP\)/,
  'data/old_list_structure.parquet': /\(repeated INT32\)/,
  'data/repeated_primitive_no_list.parquet': /\(repeated INT32\)/,
  'data/unknown-logical-type.parquet': /LogicalType field 2555/,
  'bad_data/ARROW-GH-41317.parquet': /\(MAP\)/,
  'bad_data/ARROW-GH-41321.parquet': /\(MAP\)/,
};

const session = useDuckDBScratch('rows-corpus-');

async function duckdbReads(path: string): Promise<boolean> {
  return session.connection.run(`CREATE OR REPLACE TEMP TABLE probe AS SELECT * FROM read_parquet(${sqlString(path)})`).then(() => true, () => false);
}

/** hyparquet's own decoding (its default conversions, a road apart from the rewrite's), row by row. */
async function hyparquetRows(path: string): Promise<unknown[]> {
  const bytes = await readFile(path);
  return parquetReadObjects({ file: byteSourceFromBytes(bytes), compressors: guardedCompressors(), utf8: false });
}

describe.skipIf(!present)('the Apache parquet-testing corpus (../shared; skipped when absent)', () => {
  describe.each([...files('data'), ...files('data/geospatial')])('%s', (name) => {
    const path = join(CORPUS, name);
    const refused = REFUSED[name];
    if (refused) {
      it('is refused before any byte is written, with the column and the type named', async () => {
        await expect(rewriteWithout('parquet', byteSourceFromBytes(await readFile(path)), [0], { path: name })).rejects.toMatchObject({ code: 'unsupported', message: expect.stringMatching(refused) });
      });
      return;
    }
    // Its footer says 0 rows beside a group of 6 (see footer-checks.ts).
    if (name === 'data/nation.dict-malformed.parquet' || name === 'data/repeated_no_annotation.parquet') {
      it('is unreadable, as the checker finds it', async () => {
        const attempt = rewriteWithout('parquet', byteSourceFromBytes(await readFile(path)), [0]).then(async (r) => { for await (const _ of r.chunks); });
        await expect(attempt).rejects.toMatchObject({ name: 'UnreadableError' });
      });
      return;
    }
    it('loses exactly the withheld rows (DuckDB as the oracle where it reads the file, else hyparquet)', async () => {
      const meta = await footer(path);
      const oracle = (await duckdbReads(path)) ? 'duckdb' : 'hyparquet';
      for (const { label, rows } of withholdCases(meta).filter((c) => c.rows.length < 10_000)) {
        const out = session.path(`${name.replaceAll('/', '_')}-${label.length}-${rows.length}.parquet`);
        await rewriteFile('parquet', path, rows, out);
        if (oracle === 'duckdb') expect(await differingRows(session.connection, path, rows, out), label).toBe(0);
        else {
          const withheld = new Set(rows);
          expect(await hyparquetRows(out), label).toEqual((await hyparquetRows(path)).filter((_, i) => !withheld.has(i)));
        }
      }
    });
  });

  it.each(files('bad_data'))('%s ends as unreadable or refused, or is rewritten whole', async (name) => {
    const path = join(CORPUS, name);
    const attempt = rewriteWithout('parquet', byteSourceFromBytes(await readFile(path)), [0], { path: name }).then(async (r) => { for await (const _ of r.chunks); });
    const outcome = await attempt.then(() => 'rewritten', (error: Error & { code?: string }) => (error.name === 'UnreadableError' ? 'unreadable' : error.code));
    expect(['rewritten', 'unreadable', 'unsupported']).toContain(outcome);
    if (REFUSED[name]) expect(outcome).toBe('unsupported');
  });
});
