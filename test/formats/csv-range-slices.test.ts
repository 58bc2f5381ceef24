import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { checkSlice, type SliceResult } from '../../lib/checks/check-slice.js';
import { finishRun, runChecks } from '../../lib/checks/validate-partition.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { csvRanges } from '../../lib/formats/csv-ranges.js';
import { contractFrom, memoryFile, NEXT_MORNING } from '../fixtures/partition.js';

/**
 * What a worker pool does with a big CSV file, done in one thread: the file is cut into byte
 * ranges, each range checked as a slice, the results merged. The report must be the one a
 * single pass writes, samples (rows, `line N:` of unreadable rows) and duplicates across
 * ranges included.
 */
const CONTRACT = contractFrom(`
name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  grain: [id]
  columns:
    - { name: id, type: string, required: true }
    - { name: kind, type: string, required: true, enum: [click, view] }
    - { name: price, type: "decimal(6,2)", min: 0 }
    - { name: at, type: timestamp, required: true, not_in_future: true }
sla: { freshness_column: at, max_lag_hours: 30 }
`);

function eventsCsv(rows: number): string {
  const lines = ['id,kind,price,at'];
  for (let i = 0; i < rows; i++) {
    const id = i % 97 === 5 ? 'e-3' : `e-${i}`;
    const kind = i % 89 === 0 ? 'buy' : i % 83 === 0 ? '' : i % 2 ? 'click' : 'view';
    const price = i % 79 === 0 ? '-1.00' : i % 73 === 0 ? '1.005' : `${(i % 500) / 4}`;
    const at = i % 71 === 0 ? '2026-11-29 10:00:00' : `2026-11-29 ${String(i % 24).padStart(2, '0')}:00:00.${i % 1000}+00`;
    if (i % 67 === 0) lines.push(`${id},"a\nquoted, newline",1,${at}`);
    else if (i % 61 === 0) lines.push(`${id},${kind}`);
    else lines.push(`${id},${kind},${price},${at}`);
    if (i % 59 === 0) lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

describe('a CSV file checked range by range', () => {
  it.each([2, 3, 5])('reports what one pass reports, cut into %i ranges', async (parts) => {
    const bytes = new TextEncoder().encode(eventsCsv(3000));
    const file = memoryFile('e.csv', bytes);
    const plan = buildCheckPlan(CONTRACT, NEXT_MORNING);
    const whole = await runChecks(plan, [file]);
    const ranges = await csvRanges(byteSourceFromBytes(bytes), parts);
    expect(ranges).toHaveLength(parts);
    const results: SliceResult[] = [];
    for (const [i, textRange] of ranges.entries()) results.push(await checkSlice(plan, file, { fileIndex: 0, textRange, first: i === 0 }));
    const ranged = await finishRun(plan, [file], results);
    expect(ranged.report).toEqual(whole.report);
    expect(ranged.newest).toBe(whole.newest);
    expect(whole.report.violations.map((v) => v.rule)).toEqual(expect.arrayContaining(['unreadable', 'type', 'enum', 'required', 'min', 'grain']));
  });
});
