import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';

const CORPUS = join('..', 'shared', 'corpus', 'parquet-testing');
const GOLDEN = join('test', 'golden', 'parquet-corpus.json');

function parquetFiles(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return parquetFiles(path);
    return name.endsWith('.parquet') ? [path] : [];
  });
}

/** Reads every column of a file the way the engine does and says what happened. */
async function outcome(path: string): Promise<string> {
  const table = openParquetFile(byteSourceFromBytes(readFileSync(path)));
  try {
    const schema = await table.schema();
    if (schema.kind !== 'typed') return 'not typed';
    const nested = schema.columns.filter((c) => c.type.kind === 'unsupported').length;
    let rows = 0;
    for await (const batch of table.batches(schema.columns.map((c) => c.name))) rows += batch.rowCount;
    return `read ${rows} rows, ${schema.columns.length} columns${nested ? `, ${nested} not checkable` : ''}`;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'UnreadableError') throw error;
    return `unreadable: ${error.message}`;
  }
}

// The Apache corpus lives beside the project in ../shared (present in CI); a plain clone without it
// cannot run this suite, so it is skipped there rather than failed.
describe.skipIf(!existsSync(CORPUS))('the Apache parquet-testing corpus', () => {
  it('reads every file or reports it unreadable with a reason, matching the golden outcomes', async () => {
    const outcomes: Record<string, string> = {};
    for (const path of [...parquetFiles(join(CORPUS, 'data')), ...parquetFiles(join(CORPUS, 'bad_data'))]) {
      outcomes[relative(CORPUS, path)] = await outcome(path);
    }
    if (process.env.UPDATE_GOLDEN) writeFileSync(GOLDEN, `${JSON.stringify(outcomes, null, 2)}\n`);
    expect(Object.keys(outcomes).length).toBeGreaterThan(60);
    expect(outcomes).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
  });
});
