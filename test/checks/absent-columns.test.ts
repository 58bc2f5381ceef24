import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { checkSlice, type SliceResult } from '../../lib/checks/check-slice.js';
import { finishRun, runChecks } from '../../lib/checks/validate-partition.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { jsonlRanges } from '../../lib/formats/jsonl-ranges.js';
import { contractFrom, counts, memoryFile, validate } from '../fixtures/partition.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';

/**
 * Files written by DuckDB before a minor version added columns: in every format, an optional
 * column the file lacks reads as nulls, one with a default as that default, and only a required
 * column without a default is `missing_column`.
 */
const FORMATS = [
  { format: 'parquet', copy: 'FORMAT parquet' },
  { format: 'csv', copy: 'FORMAT csv, HEADER true' },
  { format: 'jsonl', copy: 'FORMAT json' },
] as const;

const OLD_ROWS = `SELECT * FROM (VALUES
  (1, 'card', TIMESTAMPTZ '2026-11-29 10:00:00+00', 1),
  (2, 'cash', TIMESTAMPTZ '2026-11-29 11:00:00+00', 1),
  (3, 'card', TIMESTAMPTZ '2026-11-29 12:00:00+00', 2)) t(trip_id, payment, pickup_at, passengers)`;

const contract = (format: string, added: string) => contractFrom(`
name: trips
version: 1.1.0
owner: { team: taxi, notify: [taxi@example.com] }
produces: { format: ${format}, partition: "dt={ds}" }
schema:
  grain: [trip_id]
  columns:
    - { name: trip_id, type: int64, required: true }
    - { name: payment, type: string, required: true, enum: [card, cash] }
    - { name: pickup_at, type: timestamp, required: true }
    - { name: passengers, type: int64, required: true }
${added}
`);

let duckdb: { connection: DuckDBConnection; close: () => void };
const dir = mkdtempSync(join(tmpdir(), 'cg-absent-'));
const written = new Map<string, Uint8Array>();

beforeAll(async () => {
  duckdb = await openDuckDB();
  for (const { format, copy } of FORMATS) {
    const path = join(dir, `old.${format}`);
    await duckdb.connection.run(`COPY (${OLD_ROWS}) TO ${sqlString(path)} (${copy})`);
    written.set(format, new Uint8Array(readFileSync(path)));
  }
});

afterAll(() => {
  duckdb?.close();
  rmSync(dir, { recursive: true, force: true });
});

const check = (format: string, added: string) => validate(contract(format, added), [memoryFile(`old.${format}`, written.get(format)!)]);

describe.each(FORMATS)('a $format file written before columns were added', ({ format }) => {
  it('passes an optional column it lacks, read as nulls, with a note', async () => {
    const report = await check(format, '    - { name: do_zone, type: string, max_length: 4 }');
    expect(report.status).toBe('pass');
    expect(report.notes).toEqual(['column do_zone is not in the file: its rows were read as nulls']);
  });

  it('reads a column it lacks as the default, which the column rules judge', async () => {
    expect((await check(format, '    - { name: tip_policy, type: string, required: true, enum: [none, card_only], default: none }')).status).toBe('pass');
    const refused = await check(format, '    - { name: fare_cents, type: int64, required: true, default: 0, min: 0 }');
    expect(refused.status).toBe('pass');
  });

  it('fails a required column without a default as missing_column', async () => {
    const report = await check(format, '    - { name: do_zone, type: string, required: true }');
    // JSON Lines has no file schema: a missing key is a null in every row, so the rows say it.
    expect(counts(report)).toEqual(format === 'jsonl' ? { 'required:do_zone': 3 } : { 'missing_column:do_zone': 1 });
  });

  it('counts the rows a required_when on a lacking column needs', async () => {
    const report = await check(format, '    - { name: tip, type: "decimal(8,2)", required_when: { column: payment, in: [card] } }');
    expect(counts(report)).toEqual({ 'required:tip': 2 });
    expect(report.violations[0]?.samples.map((s) => s.row)).toEqual([0, 2]);
  });

  it('reads the condition of a required_when on a lacking column even where the footer settles that column', async () => {
    // passengers has no rule but required, which a Parquet footer's null count of 0 proves: it is read anyway.
    const report = await check(format, '    - { name: tip, type: "decimal(8,2)", required_when: { column: passengers, in: [1] } }');
    expect(counts(report)).toEqual({ 'required:tip': 2 });
    expect(report.violations[0]?.samples.map((s) => s.row)).toEqual([0, 1]);
  });

  it('reports a required column at severity warn as warnings and publishes', async () => {
    const report = await check(format, '    - { name: do_zone, type: string, required: true, severity: { required: warn } }');
    expect(report.status).toBe('warn');
    expect(report.violations.map((v) => [v.rule, v.column, v.count, v.severity])).toEqual([['required', 'do_zone', 3, 'warning']]);
  });
});

describe('a JSON Lines file checked range by range, as a worker pool cuts it', () => {
  it('notes a key no line has once, as one pass does', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ trip_id: i, payment: i % 2 ? 'card' : 'cash', pickup_at: '2026-11-29T10:00:00Z' }));
    const bytes = new TextEncoder().encode(`${lines.join('\n')}\n`);
    const file = memoryFile('trips.jsonl', bytes);
    const plan = buildCheckPlan(contract('jsonl', '    - { name: do_zone, type: string }'), Date.parse('2026-11-30T05:00:00Z'));
    const whole = await runChecks(plan, [file]);
    const ranges = await jsonlRanges(byteSourceFromBytes(bytes), 3);
    expect(ranges).toHaveLength(3);
    const results: SliceResult[] = [];
    for (const [i, textRange] of ranges.entries()) results.push(await checkSlice(plan, file, { fileIndex: 0, textRange, first: i === 0 }));
    const ranged = await finishRun(plan, [file], results);
    expect(whole.report.notes).toEqual(['column do_zone is not in the file: its rows were read as nulls']);
    expect(ranged.report).toEqual(whole.report);
  });
});
