import { describe, expect, it } from 'vitest';
import { idPatternOf, isIdName, timeRole } from '../../lib/infer/column-roles.js';
import { keysFromMetadata } from '../../lib/infer/declared-keys.js';
import { HashSet } from '../../lib/infer/hash-set.js';
import { compositeRound, PAIR_COLUMNS } from '../../lib/infer/key-candidates.js';
import { KeyTracker } from '../../lib/infer/key-tracker.js';
import type { ProposedColumn } from '../../lib/infer/proposal.js';

describe('what a column name says', () => {
  it.each(['id', 'vendor_id', 'VendorID', 'PULocationID', 'trip_seq', 'order_no', 'invoice_number', 'sku_key', 'uuid', 'event-guid'])('%s is id-like', (name) => {
    expect(isIdName(name)).toBe(true);
  });

  it.each(['paid', 'valid', 'vendor', 'identity', 'passenger_count', 'idea', 'keyword', 'pickup_at'])('%s is not', (name) => {
    expect(isIdName(name)).toBe(false);
  });

  it.each([
    ['ingested_at', 'load'], ['_etl_loaded_at', 'load'], ['loaded_at', 'load'], ['_sdc_batched_at', 'load'], ['_airbyte_extracted_at', 'load'],
    ['_fivetran_synced', 'load'], ['updated_at', 'update'], ['modified_at', 'update'], ['LastModified', 'update'], ['pickup_at', 'event'],
    ['ordered_at', 'event'], ['created_at', 'event'], ['event_time', 'event'],
  ])('%s is a time of %s', (name, role) => {
    expect(timeRole(name)).toBe(role);
  });

  it('knows UUIDs and ULIDs by their values', () => {
    expect(idPatternOf('9dd4e461-268c-8034-f5c8-564e155c67a6')).toBe('UUID');
    expect(idPatternOf('01ARZ3NDEKTSV4RRFFQ69G5FAV')).toBe('ULID');
    expect(idPatternOf('zone_17')).toBeUndefined();
  });
});

describe('keys a Parquet writer declared', () => {
  const columns = new Set(['vendor_id', 'trip_seq', 'pickup_at']);
  const pandas = (index: unknown[]) => [{ key: 'pandas', value: JSON.stringify({ index_columns: index, columns: [] }) }];

  it('reads the columns of a named pandas index, one or several', () => {
    expect(keysFromMetadata(pandas(['vendor_id', 'trip_seq']), columns)).toEqual([{ columns: ['vendor_id', 'trip_seq'], source: 'the pandas index (Parquet metadata "pandas")' }]);
  });

  it('takes no key from a RangeIndex, an unnamed index, a column the file lacks or bad JSON', () => {
    expect(keysFromMetadata(pandas([{ kind: 'range', name: null, start: 0, stop: 10, step: 1 }]), columns)).toEqual([]);
    expect(keysFromMetadata(pandas(['__index_level_0__']), new Set([...columns, '__index_level_0__']))).toEqual([]);
    expect(keysFromMetadata(pandas(['trip_id']), columns)).toEqual([]);
    expect(keysFromMetadata([{ key: 'pandas', value: '{not json' }], columns)).toEqual([]);
  });

  it('reads the Iceberg identifier fields by their ids', () => {
    const schema = { type: 'struct', 'identifier-field-ids': [2, 1], fields: [{ id: 1, name: 'vendor_id' }, { id: 2, name: 'trip_seq' }, { id: 3, name: 'pickup_at' }] };
    expect(keysFromMetadata([{ key: 'iceberg.schema', value: JSON.stringify(schema) }], columns)).toEqual([
      { columns: ['trip_seq', 'vendor_id'], source: 'the Iceberg identifier fields (Parquet metadata "iceberg.schema")' },
    ]);
  });
});

describe('the key tracker', () => {
  const batch = (columns: Record<string, unknown[]>) => new Map(Object.entries(columns));

  it('checks uniqueness within each partition and says where a key failed, and why', () => {
    const tracker = new KeyTracker();
    for (const key of [['a'], ['b'], ['c'], ['a', 'b']]) tracker.add(key);
    tracker.observe(batch({ a: [1, 2, 3], b: [1, 1, 2], c: [1, 2, 3] }), 3);
    tracker.endPartition();
    tracker.observe(batch({ a: [1, 2, 3], b: [5, 6, 7], c: [1, null, 3] }), 3);
    tracker.endPartition();
    expect(tracker.results()).toEqual([
      { columns: ['a'] },
      { columns: ['b'], failure: { partition: 0, reason: 'repeat' } },
      { columns: ['c'], failure: { partition: 1, reason: 'null' } },
      { columns: ['a', 'b'] },
    ]);
  });

  it('holds at most its budget of hashes, setting aside the least plausible keys first', () => {
    const tracker = new KeyTracker(100);
    tracker.add(['trip_id'], 1);
    tracker.add(['pickup_at'], 3);
    tracker.add(['note'], 2);
    const rows = Array.from({ length: 60 }, (_, i) => i);
    tracker.observe(batch({ trip_id: rows, pickup_at: rows, note: rows.map((i) => `n${i}`) }), 60);
    expect(tracker.results()).toEqual([
      { columns: ['trip_id'] },
      { columns: ['pickup_at'], failure: { partition: 0, reason: 'budget' } },
      { columns: ['note'], failure: { partition: 0, reason: 'budget' } },
    ]);
  });

  it('keeps a hash set exact as it grows', () => {
    const set = new HashSet();
    const added = Array.from({ length: 50_000 }, (_, i) => set.add(i * 7919));
    expect(added.every(Boolean)).toBe(true);
    expect(set.size).toBe(50_000);
    expect([set.add(7919), set.add(2 ** 53 - 1), set.add(2 ** 53 - 1)]).toEqual([false, true, false]);
  });
});

describe('the composite search', () => {
  const col = (name: string, kind: ProposedColumn['type']['kind'], extra: Partial<ProposedColumn> = {}): ProposedColumn =>
    ({ name, type: { kind } as ProposedColumn['type'], required: true, notes: [], ...extra });
  const repeated = (names: readonly string[]) => names.map((name) => ({ columns: [name], failure: { partition: 0, reason: 'repeat' as const } }));

  it('pairs id-like columns first, leaves out measures, nullable, constant and unique columns, and caps the columns it pairs', () => {
    const codes = Array.from({ length: 14 }, (_, i) => col(`code_${i}`, 'int64'));
    const columns = [...codes, col('amount', 'float64'), col('note', 'string', { required: false }), col('source', 'string'), col('ts', 'timestamp'), col('shop_id', 'string', { idLike: 'name' }), col('line_no', 'int32', { idLike: 'name' })];
    const results = [...repeated(columns.map((c) => c.name).filter((n) => n !== 'ts')), { columns: ['ts'] }];
    const round = compositeRound(2, columns, results, new Set(['source']));
    expect(round.parts).toEqual(['shop_id', 'line_no', ...codes.slice(0, PAIR_COLUMNS - 2).map((c) => c.name)]);
    expect(round.keys).toHaveLength(66);
    expect(round.keys[0]).toEqual(['shop_id', 'line_no']);
    expect(round.left).toBe(4);
  });
});
