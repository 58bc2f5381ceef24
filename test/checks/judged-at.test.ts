import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { validatePartition } from '../../lib/checks/validate-partition.js';
import { contractFrom, counts, memoryFile } from '../fixtures/partition.js';

// A daily contract due at 06:00 UTC the day after: dt=2026-11-05 is due 2026-11-06T06:00:00Z.
const TRIPS = contractFrom(`
name: trips
version: 1.0.0
owner: { team: taxi, notify: [taxi@example.com] }
produces: { format: csv, partition: "dt={ds}" }
schema:
  grain: [trip_id]
  columns:
    - { name: trip_id, type: int64, required: true }
    - { name: pickup_at, type: timestamp, required: true, not_in_future: true }
    - { name: ingested_at, type: timestamp, required: true }
sla:
  arrival_by: "06:00"
  timezone: UTC
  max_lag_hours: 26
  freshness_column: ingested_at
`);

const THIRTY_DAYS_LATER = Date.parse('2026-12-05T16:00:00Z');

function trips(rows: readonly [string, string][]) {
  return memoryFile('part-0.csv', `trip_id,pickup_at,ingested_at\n${rows.map(([pickup, ingested], i) => `${i + 1},${pickup},${ingested}`).join('\n')}\n`);
}

const judge = (file: ReturnType<typeof trips>, partition?: string) => validatePartition(buildCheckPlan(TRIPS, THIRTY_DAYS_LATER, partition === undefined ? {} : { partition }), [file]);

describe('freshness and not_in_future of a partition dropped after it was due', () => {
  it('passes a backfill whose data was fresh for its own day', async () => {
    const report = await judge(trips([['2026-11-05T10:00:00Z', '2026-11-05T23:30:00Z']]), 'dt=2026-11-05');
    expect(report.status).toBe('pass');
    expect(report.checked_at).toBe('2026-12-05T16:00:00Z');
    expect(report.notes).toEqual(['freshness and not_in_future were judged as of 2026-11-06T06:00:00.000Z, when dt=2026-11-05 was due, not the check time']);
  });

  it('fails a backfill whose data was already stale when its day was due, saying when that was', async () => {
    const report = await judge(trips([['2026-11-05T10:00:00Z', '2026-11-04T01:00:00Z']]), 'dt=2026-11-05');
    expect(counts(report)).toEqual({ 'freshness:ingested_at': 1 });
    expect(report.violations[0]?.message).toBe('the newest ingested_at is 2026-11-04T01:00:00.000Z, 53.0 hours before 2026-11-06T06:00:00.000Z, when dt=2026-11-05 was due; the contract allows 26');
  });

  it('holds not_in_future to the due time: a pickup after the day was due does not belong to it', async () => {
    const report = await judge(trips([['2026-11-07T09:00:00Z', '2026-11-05T23:30:00Z']]), 'dt=2026-11-05');
    expect(counts(report)).toEqual({ 'not_in_future:pickup_at': 1 });
    expect(report.violations[0]?.message).toBe('1 row of pickup_at is later than 2026-11-06T06:00:00.000Z, when dt=2026-11-05 was due');
  });

  it('without a partition, judges against the check time as before', async () => {
    const report = await judge(trips([['2026-11-05T10:00:00Z', '2026-11-05T23:30:00Z']]));
    expect(counts(report)).toEqual({ 'freshness:ingested_at': 1 });
    expect(report.violations[0]?.message).toContain('hours before 2026-12-05T16:00:00.000Z; the contract allows 26');
  });
});
