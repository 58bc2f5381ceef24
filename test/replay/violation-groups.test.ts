import { describe, expect, it } from 'vitest';
import type { Report, Violation } from '../../lib/report/report.js';
import { formatGroup, groupViolations } from '../../lib/replay/violation-groups.js';

function report(...violations: Violation[]): Report {
  return { status: violations.length > 0 ? 'fail' : 'pass', contract: { name: 'orders', version: '1.3.0' }, rows: 1200, files: [], violations, checked_at: '2026-11-30T05:00:00Z' };
}

const enumOf = (value: string, count: number): Violation => ({ rule: 'enum', severity: 'error', column: 'status', count, message: `${count} rows of status have a value not in [placed]`, samples: [{ file: 'p.parquet', row: 1, value }, { file: 'p.parquet', row: 2, value: 'other' }] });
const tooMany = (rows: number): Violation => ({ rule: 'max_rows', severity: 'error', count: 1, message: `the partition has ${rows} rows; the contract allows at most 1400`, samples: [] });

describe('violations grouped across partitions', () => {
  it('counts partitions per rule, column and first sample value, whatever the row counts', () => {
    const groups = groupViolations([report(enumOf('refunded', 3)), report(enumOf('refunded', 40), tooMany(1500)), report(enumOf('paid', 1)), report()]);
    expect(groups).toEqual([
      { rule: 'enum', column: 'status', value: 'refunded', message: null, partitions: 2 },
      { rule: 'enum', column: 'status', value: 'paid', message: null, partitions: 1 },
      { rule: 'max_rows', column: null, value: null, message: 'the partition has 1500 rows; the contract allows at most 1400', partitions: 1 },
    ]);
    expect(groups.map(formatGroup)).toEqual(['enum status: "refunded" in 2', 'enum status: "paid" in 1', 'max_rows (the partition has 1500 rows; the contract allows at most 1400) in 1']);
  });

  it('counts a partition once even when two of its violations fall in one group', () => {
    const twice: Violation = { ...enumOf('refunded', 1), column: 'status' };
    expect(groupViolations([report(enumOf('refunded', 2), twice)])[0]?.partitions).toBe(1);
  });

  it('shortens a long value and keeps only the first line of a message', () => {
    const long: Violation = { rule: 'pattern', severity: 'error', column: 'order_id', count: 1, message: 'm', samples: [{ file: 'f', row: 0, value: 'x'.repeat(100) }] };
    const fix: Violation = { rule: 'type', severity: 'error', column: 'seen_at', count: 1, message: 'not timestamp\n      fix: write it UTC-adjusted', samples: [{ file: 'f', row: null, value: null }] };
    // Equally widespread, so in report order: type before pattern.
    const [b, a] = groupViolations([report(long, fix)]).map(formatGroup);
    expect(a).toBe(`pattern order_id: "${'x'.repeat(38)}… in 1`);
    expect(b).toBe('type seen_at (not timestamp) in 1');
  });
});
