import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBatch } from '../../lib/checks/check-batch.js';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { PartitionState } from '../../lib/checks/partition-state.js';
import { checkFileSchema } from '../../lib/checks/schema-check.js';
import { observedRanges, spanRecords } from '../../lib/checks/observed-ranges.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import { wideTable } from '../matrix/wide-table.js';
import { contractFrom, contractOfColumns, NEXT_MORNING } from '../fixtures/partition.js';
import { PARQUET_WRITERS, writeCached } from '../writers/index.js';
import { writeWithArrowRs } from '../writers/arrow-rs-writer.js';

/**
 * Dictionary-encoded pages reach the checks as indices into their dictionary (a DictionaryVector),
 * each rule decided once per entry (lib/checks/check-dictionary-column.ts). Held against the
 * value-per-row path on the writer matrix's wide table: the same counts, the same samples in the
 * same order, the same observed ranges, newest value and key hashes.
 */
const ROWS = 20_000;
const table = wideTable(ROWS);
const WIDE = readFileSync('test/matrix/contracts/wide.yaml', 'utf8');
/** `kind` neither a condition nor part of a composite key, and a one-column key: it takes the entry path whole. */
const KIND_ALONE = WIDE.replace('{ name: qty_when, type: int32, required_when: { column: kind, in: [a] } }', '{ name: qty_when, type: int32 }')
  .replace('{ name: kind, type: string, enum: [a, b, c, d] }', '{ name: kind, type: string, enum: [a, b, c, d], unique: true }')
  .replace('{ name: label, type: string, min_length: 2, max_length: 20 }', '{ name: label, type: string, min_length: 2, max_length: 20, unique: true }');

/** What a pass over the file leaves in the state, as plain data to compare. */
async function checkedWith(yaml: string, bytes: Uint8Array, vectors: boolean): Promise<{ state: unknown; dictionaryColumns: Set<string> }> {
  const plan = buildCheckPlan(contractFrom(yaml), NEXT_MORNING);
  const state = new PartitionState(plan);
  const file = openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: 0 });
  const columns = checkFileSchema(plan, await file.schema(), 'wide.parquet', state.log).filter((c) => !c.absent);
  const dictionaryColumns = new Set<string>();
  for await (const batch of file.batches(columns.map((c) => c.plan.spec.name), { vectors })) {
    for (const [name, vector] of batch.vectors ?? []) if (vector.kind === 'dictionary') dictionaryColumns.add(name);
    checkBatch(state, columns, 'wide.parquet', batch);
  }
  const hashes = state.keySets.map((keySet) => ({ columns: keySet.columns, hashes: keySet.hashes.segments().flatMap((s) => Array.from(s)) }));
  // Spans as the report and the threads carry them: an INT64 column read as doubles (number-runs.ts) spans in numbers, not bigints.
  return { state: { entries: state.log.entries(), spans: observedRanges(plan, state.spans), records: spanRecords(state.spans), newest: state.newest, rows: state.rows, hashes }, dictionaryColumns };
}

describe('dictionary-encoded columns checked once per entry', () => {
  const variants = PARQUET_WRITERS.filter((v) => ['duckdb-default', 'duckdb-one-group', 'arrow-rs-default', 'arrow-rs-dict-fallback', 'arrow-rs-small-pages', 'arrow-rs-v2', 'polars-default'].includes(v.id));
  for (const variant of variants) {
    for (const [label, yaml] of [['the wide contract', WIDE], ['kind and label as one-column keys', KIND_ALONE]] as const) {
      it(`finds in a ${variant.id} file what checking value by value finds, sample for sample, against ${label} (${variant.settings})`, async () => {
        const bytes = readFileSync(await writeCached(variant, table, 'wide'));
        const byEntry = await checkedWith(yaml, bytes, true);
        const byValue = await checkedWith(yaml, bytes, false);
        expect(byEntry.dictionaryColumns.has('kind'), 'kind arrives as dictionary indices').toBe(true);
        expect(byValue.dictionaryColumns.size).toBe(0);
        expect(byEntry.state).toEqual(byValue.state);
      });
    }
  }

  it('reads a chunk whose dictionary overflows part way (arrow-rs falls back to PLAIN pages) as indices, then as values, and checks it as value by value', async () => {
    // 20 statuses for 30,000 rows, then a new value a row: the 1 KiB dictionary overflows in the fourth slice.
    const rows = 50_000;
    const values = Array.from({ length: rows }, (_, i) => (i % 97 === 5 ? null : i < 30_000 ? `status-${i % 20}` : `late-${i}`));
    const dir = mkdtempSync(join(tmpdir(), 'dict-fallback-'));
    try {
      const path = join(dir, 'fallback.parquet');
      await writeWithArrowRs({ rows, columns: [{ name: 'v', type: 'string', nullable: true, values }] }, path, (b) => b.setDictionaryPageSizeLimit(1024));
      const bytes = readFileSync(path);
      const file = openParquetFile(byteSourceFromBytes(bytes), { wholeGroupValues: 0 });
      const forms: string[] = [];
      const read: unknown[] = [];
      for await (const batch of file.batches(['v'], { vectors: true })) {
        const vector = batch.vectors?.get('v');
        forms.push(vector ? 'indices' : 'values');
        read.push(...(vector?.kind === 'dictionary' ? Array.from(vector.indices, (i) => (i < 0 ? null : vector.entries[i])) : Array.from(batch.columns.get('v')!)));
      }
      expect(forms.slice(0, 4)).toEqual(['indices', 'indices', 'indices', 'values']);
      expect(read).toEqual(values);
      const yaml = `name: t
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: parquet }
schema:
  columns:
    - { name: v, type: string, required: true, pattern: "^status-1[0-9]?$", max_length: 8, unique: true }
`;
      const byEntry = await checkedWith(yaml, bytes, true);
      expect(byEntry.dictionaryColumns.has('v')).toBe(true);
      expect(byEntry.state).toEqual((await checkedWith(yaml, bytes, false)).state);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('counts a bad entry only for the rows that use it: none when no row does', async () => {
    const contract = contractOfColumns('t', '{ name: status, type: string, required: true, enum: [paid, open] }');
    const plan = buildCheckPlan(contract, NEXT_MORNING);
    const state = new PartitionState(plan);
    const columns = [{ plan: plan.columns[0]! }];
    // Entry 2 ("void") breaks the enum and no row uses it; entry 3 ("lost") breaks it in rows 1 and 4.
    const vector = { kind: 'dictionary' as const, entries: ['paid', 'open', 'void', 'lost'], indices: Int32Array.of(0, 3, 1, -1, 3, 0) };
    checkBatch(state, columns, 'f.parquet', { rowStart: 100, rowCount: 6, columns: new Map(), vectors: new Map([['status', vector]]) });
    const entries = state.log.entries();
    expect(entries.map((e) => [e.rule, e.count, e.samples.map((s) => [s.row, s.value])])).toEqual([
      ['enum', 2, [[101, 'lost'], [104, 'lost']]],
      ['required', 1, [[103, null]]],
    ]);
  });
});
