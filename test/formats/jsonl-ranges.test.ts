import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { checkSlice, type SliceResult } from '../../lib/checks/check-slice.js';
import { finishRun, runChecks } from '../../lib/checks/validate-partition.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';
import { jsonlRanges } from '../../lib/formats/jsonl-ranges.js';
import type { ColumnBatch } from '../../lib/formats/table-file.js';
import { contractFrom, memoryFile, NEXT_MORNING } from '../fixtures/partition.js';
import { columnTypes } from './csv-parsed-reference.js';
import { collect } from './jsonl-parsed-reference.js';
import { prng, randomJsonl, TYPES } from './jsonl-random.js';

/**
 * A JSON Lines file cut into byte ranges (for worker threads) must read, range by range, as it
 * reads whole: the same rows, numbered as in the file, the same unreadable lines with their line
 * numbers, the same keys; and a check run over the ranges must report what one pass reports.
 */
const NAMES = Object.keys(TYPES);

function flatten(batches: readonly ColumnBatch[]) {
  return {
    rows: batches.flatMap((b) => Array.from({ length: b.rowCount }, (_, i) => b.rowStart + i)),
    values: NAMES.map((name) => batches.flatMap((b) => Array.from(b.columns.get(name) ?? []))),
    unreadable: batches.flatMap((b) => b.unreadableRows ?? []),
    keys: [...new Set(batches.flatMap((b) => [...(b.keys ?? [])]))].sort(),
  };
}

describe('jsonlRanges', () => {
  it('cuts random files into ranges that read as the whole file does', async () => {
    const draw = prng(31337);
    for (let file = 0; file < 25; file++) {
      const bytes = randomJsonl(draw);
      const source = byteSourceFromBytes(bytes);
      for (const parts of [2, 3, 7]) {
        const ranges = await jsonlRanges(source, parts, { chunkBytes: 64 });
        expect(ranges[0]!.start).toBe(0);
        expect(ranges.at(-1)!.end).toBe(bytes.length);
        ranges.slice(1).forEach((range, i) => expect(range.start).toBe(ranges[i]!.end));
        for (const options of [{}, { parse: columnTypes(TYPES) }]) {
          const whole = flatten(await collect(openJsonLinesFile(source, { batchRows: 9 }).batches(NAMES, options)));
          const pieces: ColumnBatch[] = [];
          for (const textRange of ranges) pieces.push(...(await collect(openJsonLinesFile(source, { chunkBytes: 5 }).batches(NAMES, { ...options, textRange }))));
          expect(flatten(pieces), `file ${file}, ${parts} parts`).toEqual(whole);
        }
      }
    }
  });

  it('keeps a compressed file whole', async () => {
    const gzip = byteSourceFromBytes(gzipSync(randomJsonl(prng(1))));
    expect(await jsonlRanges(gzip, 4)).toEqual([{ start: 0, end: gzip.byteLength, firstRow: 0, firstLine: 1 }]);
  });

  it('gives a check run over the ranges the report of one pass', async () => {
    const contract = contractFrom(`
name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: jsonl }
schema:
  grain: [id]
  extra_columns: reject
  columns:
    - { name: id, type: int64, required: true }
    - { name: amount, type: "decimal(12,2)", min: 0 }
    - { name: at, type: timestamp, required: true }
    - { name: name, type: string, enum: [x, Zoë] }
`);
    const plan = buildCheckPlan(contract, NEXT_MORNING);
    const bytes = randomJsonl(prng(7));
    const file = memoryFile('e.jsonl', bytes);
    const whole = await runChecks(plan, [file]);
    const results: SliceResult[] = [];
    for (const [i, textRange] of (await jsonlRanges(byteSourceFromBytes(bytes), 3)).entries()) {
      results.push(await checkSlice(plan, file, { fileIndex: 0, textRange, first: i === 0 }));
    }
    expect((await finishRun(plan, [file], results)).report).toEqual(whole.report);
    expect(whole.report.violations.filter((v) => v.rule === 'unexpected_column').length).toBeGreaterThan(0);
  });
});
