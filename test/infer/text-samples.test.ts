import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { column, expectExplained, expectPasses, inferContract, tempDir, writeSample } from './infer-helpers.js';

const STATUSES = ['new', 'paid', 'shipped'];

/** A CSV partition: ids 1..rows (the same ids in every partition), every type the table knows. */
function csvRows(day: string, rows: number, from = 0): string[] {
  return Array.from({ length: rows }, (_, k) => {
    const i = from + k;
    const note = i === 7 && day === '2026-11-28' ? '' : `"note, ${i}"`;
    const minute = String(i % 60).padStart(2, '0');
    return [i + 1, `sku-${i % 7}`, i % 5, `${(i * 1.25).toFixed(2)}`, note, STATUSES[i % 3], i % 2 === 0 ? 'true' : 'False', day, `${day} 10:${minute}:00+00`, `${day}T09:${minute}:00`].join(',');
  });
}

const CSV_HEADER = 'id,sku,qty,price,note,status,flag,day,seen_at,local_at';

function writeCsvPartitions(root: string): string[] {
  const first = join(root, 'shop', 'dt=2026-11-28');
  const second = join(root, 'shop', 'dt=2026-11-29');
  writeSample(first, 'part-0.csv', [CSV_HEADER, ...csvRows('2026-11-28', 30)].join('\n') + '\n');
  writeSample(first, 'part-1.csv.gz', [CSV_HEADER, ...csvRows('2026-11-28', 20, 30)].join('\n') + '\n');
  writeSample(second, 'part-0.csv', [CSV_HEADER, ...csvRows('2026-11-29', 60)].join('\n') + '\n');
  return [first, second];
}

describe('infer on CSV samples', () => {
  it('reads every type as the engine does, names the dataset from the folder and passes both partitions', async () => {
    const dirs = writeCsvPartitions(tempDir());
    const { contract, text } = await inferContract(dirs, 'shop.v1.yaml');
    expect(contract.name).toBe('shop');
    expect(contract.produces).toEqual({ format: 'csv', partition: 'dt={ds}' });
    expect(contract.schema.columns.map((c) => [c.name, c.typeText])).toEqual([
      ['id', 'int64'], ['sku', 'string'], ['qty', 'int64'], ['price', 'decimal(18,2)'], ['note', 'string'],
      ['status', 'string'], ['flag', 'boolean'], ['day', 'date'], ['seen_at', 'timestamp'], ['local_at', 'timestamp_ntz'],
    ]);
    expect(column(contract, 'status').enum).toEqual(STATUSES);
    expect(column(contract, 'qty')).toMatchObject({ min: 0, max: 4, required: true });
    expect(column(contract, 'id')).toMatchObject({ min: undefined, max: undefined });
    expect(column(contract, 'seen_at').notInFuture).toBe(true);
    expect(column(contract, 'local_at').notInFuture).toBe(false);
    expect(contract.sla).toMatchObject({ freshnessColumn: 'seen_at', minRows: 25, maxRows: 120 });
    expect(text).toContain('# id: observed range 1 to 60; no min/max: a unique whole number is an identifier that grows');
    await expectPasses(contract, dirs);
  });

  it('does not make a column with one null in one sample required', async () => {
    const { contract, text } = await inferContract(writeCsvPartitions(tempDir()), 'shop.v1.yaml');
    expect(column(contract, 'note').required).toBe(false);
    expect(column(contract, 'sku').required).toBe(true);
    expect(text).toContain('# note: seen 110 rows in 2 partitions, 1 null (in 1 of 2 partitions): not required');
  });

  it('finds the grain per partition: ids repeat across partitions but not within one', async () => {
    const { contract, text, why } = await inferContract(writeCsvPartitions(tempDir()), 'shop.v1.yaml');
    expect(contract.schema.grain).toEqual(['id']);
    expectExplained(text, why, [
      'grain: id: an id-like name, unique and non-null in each of 2 samples (checked per partition, as the gate checks it)',
      'seen_at: unique in 2 of 2 samples, but a timestamp: unique by chance',
    ]);
  });

  it('falls back to a pair of columns when no single column is unique', async () => {
    const dir = join(tempDir(), 'visits', 'dt=2026-11-29');
    const rows = Array.from({ length: 40 }, (_, i) => `store-${i % 4},${Math.floor(i / 4)},${i % 3}`);
    writeSample(dir, 'part-0.csv', ['store,seq,kind', ...rows].join('\n'));
    const { contract, text, why } = await inferContract([dir], 'visits.v1.yaml');
    expect(contract.schema.grain).toEqual(['store', 'seq']);
    expectExplained(text, why, [
      'grain: store, seq: seq id-like, with store; unique together and non-null in the only sample (checked per partition, as the gate checks it), and no smaller key with an id-like column is',
      'search: every column alone; then 3 pairs of seq, store, kind',
    ]);
    await expectPasses(contract, [dir]);
  });
});

describe('the enum threshold', () => {
  /** One partition whose `tier` column has `distinct` values over `rows` rows. */
  async function tierEnum(distinct: number, rows: number, extra: string[] = []) {
    const dir = join(tempDir(), 'tiers', 'dt=2026-11-29');
    writeSample(dir, 'part-0.csv', ['id,tier', ...Array.from({ length: rows }, (_, i) => `${i},t${i % distinct}`)].join('\n'));
    const { contract, text } = await inferContract([dir, ...extra], 'tiers.v1.yaml');
    await expectPasses(contract, [dir]);
    return { values: column(contract, 'tier').enum, text };
  }

  it('makes an enum of 5 values seen in 50 rows (10 per value)', async () => {
    expect((await tierEnum(5, 50)).values).toEqual(['t0', 't1', 't2', 't3', 't4']);
  });

  it('makes no enum of 5 values seen in only 49 rows, and says why', async () => {
    const { values, text } = await tierEnum(5, 49);
    expect(values).toBeUndefined();
    expect(text).toContain('# tier: no enum: 5 distinct values in only 49 non-null values (an enum needs at most 20 distinct values and at least 10 rows per value)');
  });

  it('makes no enum of more distinct values than --enum-max, however many rows', async () => {
    expect((await tierEnum(21, 1000)).values).toBeUndefined();
    expect((await tierEnum(5, 1000, ['--enum-max', '4'])).values).toBeUndefined();
    expect((await tierEnum(5, 1000, ['--enum-max', '5'])).values).toHaveLength(5);
  });
});

describe('infer on JSON Lines samples', () => {
  it('treats an absent key as a null, keeps quoted digits as strings and leaves out what has no type', async () => {
    const root = tempDir();
    const line = (i: number) => JSON.stringify({
      event_id: `e${i}`, zip: `0${1000 + i}`, count: i, ...(i === 3 ? {} : { score: i / 4 }),
      nested: { a: i }, event_time: `2026-11-29T0${i % 10}:00:00Z`, mixed: i % 2 ? 'x' : 1,
    });
    const dir = join(root, 'events', 'dt=2026-11-29');
    writeSample(dir, 'part-0.jsonl.gz', Array.from({ length: 30 }, (_, i) => line(i)).join('\n') + '\n');
    writeSample(dir, 'part-1.jsonl', `{"event_id":"e99","zip":"09999","count":1234567890123456789,"score":NaN,"nested":{},"event_time":"2026-11-29T10:00:00Z","mixed":"y"}\n`);
    const { contract, text } = await inferContract([dir], 'events.v1.yaml');
    expect(contract.produces.format).toBe('jsonl');
    expect(contract.schema.columns.map((c) => [c.name, c.typeText, c.required])).toEqual([
      ['event_id', 'string', true], ['zip', 'string', true], ['count', 'int64', true], ['score', 'float64', false], ['event_time', 'timestamp', true],
    ]);
    expect(column(contract, 'score')).toMatchObject({ min: undefined, max: undefined });
    expect(column(contract, 'count')).toMatchObject({ min: undefined, max: undefined });
    expect(text).toContain('#   nested: its values fit no one contract type');
    expect(text).toContain('#   mixed: its values fit no one contract type');
    expect(contract.schema.grain).toEqual(['event_id']);
    expect(contract.sla?.freshnessColumn).toBe('event_time');
    await expectPasses(contract, [dir]);
  });
});
