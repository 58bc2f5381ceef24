import { describe, expect, it } from 'vitest';
import { hashString } from '../../lib/checks/key-hash.js';
import { fanoutKeys, parseFanoutRun } from '../../lib/fanout/fanout-layout.js';
import { decodePairs, shardOf, splitByShard } from '../../lib/fanout/key-parts.js';
import { checkSecondsFor, derivedFanoutLimits } from '../../lib/fanout/fanout-limits.js';
import { shouldFanOut } from '../../lib/fanout/should-fan-out.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';

const files = (sizes: number[]) => ({ files: sizes.map((size, i) => ({ key: `k${i}`, relative: `k${i}`, size, etag: '"e"' })) });

describe('shouldFanOut', () => {
  it('fans out past either limit, and not at it', () => {
    const limits = { maxFiles: 3, maxBytes: 100 };
    expect(shouldFanOut(files([10, 10, 10]), limits)).toBe(false);
    expect(shouldFanOut(files([10, 10, 10, 10]), limits)).toBe(true);
    expect(shouldFanOut(files([50, 50]), limits)).toBe(false);
    expect(shouldFanOut(files([50, 51]), limits)).toBe(true);
    expect(shouldFanOut(files([]), limits)).toBe(false);
  });
});

describe('derivedFanoutLimits', () => {
  it('sizes the limits by 0.5M rows/s x 32 B/row over the check budget, halved, and caps them by memory', () => {
    // 300 s: 270 s to check (10 s call margin, 20 s for the handoff), 16 MB/s x 270 s x 0.5.
    expect(derivedFanoutLimits({ timeoutSeconds: 300, memoryMb: 1769 })).toEqual({ maxFiles: 200, maxBytes: 2_160_000_000, checkSeconds: 270 });
    // 900 s would allow 7 GB by time; 1,769 MB holds (1,769 - 130) MB / 13 B rows x 32 B x 0.75 = 3.17 GB.
    expect(derivedFanoutLimits({ timeoutSeconds: 900, memoryMb: 1769 }).maxBytes).toBe(3_172_829_656);
    expect(derivedFanoutLimits({ timeoutSeconds: 60, memoryMb: 1769 })).toEqual({ maxFiles: 200, maxBytes: 240_000_000, checkSeconds: 30 });
    // Never below the smallest limit a configuration may set, however small the function.
    expect(derivedFanoutLimits({ timeoutSeconds: 10, memoryMb: 128 }).maxBytes).toBe(1024 ** 2);
  });

  it('keeps a check budget for timeouts too short for the reserve', () => {
    expect(checkSecondsFor(300)).toBe(270);
    expect(checkSecondsFor(20)).toBe(2);
  });
});

describe('key parts', () => {
  it('puts equal hashes in the same shard, every shard in range, and reads back (hash, row) pairs', () => {
    const hashes = Float64Array.from([hashString('a'), NaN, hashString('b'), hashString('a'), 0, 2 ** 53 - 1]);
    const parts = splitByShard(hashes, 4);
    const back = [...parts].flatMap(([shard, bytes]) => {
      const { hashes: h, rows } = decodePairs(bytes);
      return Array.from(h, (hash, i) => ({ shard, hash, row: rows[i]! }));
    });
    expect(back.map((p) => p.row).sort()).toEqual([0, 2, 3, 4, 5]);
    for (const { shard, hash, row } of back) {
      expect(hash).toBe(hashes[row]);
      expect(shard).toBe(shardOf(hash, 4));
      expect(shard).toBeGreaterThanOrEqual(0);
      expect(shard).toBeLessThan(16);
    }
    expect(shardOf(0, 4)).toBe(0);
    expect(shardOf(2 ** 53 - 1, 4)).toBe(15);
    expect([...splitByShard(hashes, 0).keys()]).toEqual([0]);
  });
});

describe('fan-out records', () => {
  it('keep a run under _gate/runs/<name>/v<major>/<partition>/<tag>/', () => {
    const keys = fanoutKeys(DEFAULT_LAYOUT, { address: { dataset: 'orders', major: 1, partition: 'dt=2026-11-29/hr=06' }, tag: '00ab' });
    expect([keys.request, keys.items, keys.fileResult(3), keys.keyPart(0, 15, 3), keys.shardResult(1, 2)]).toEqual([
      '_gate/runs/orders/v1/dt=2026-11-29/hr=06/00ab/requested.json',
      '_gate/runs/orders/v1/dt=2026-11-29/hr=06/00ab/items.json',
      '_gate/runs/orders/v1/dt=2026-11-29/hr=06/00ab/files/3.json',
      '_gate/runs/orders/v1/dt=2026-11-29/hr=06/00ab/keys/0/15/3.bin',
      '_gate/runs/orders/v1/dt=2026-11-29/hr=06/00ab/shards/1-2.json',
    ]);
  });

  it('refuse a step input that is not a run', () => {
    const run = { address: { dataset: 'orders', major: 1, partition: 'dt=2026-11-29' }, tag: '00ab', now: 1, contractVersion: '1.2.0', shardBits: 4 };
    expect(parseFanoutRun(run)).toEqual(run);
    expect(() => parseFanoutRun({ ...run, shardBits: 40 })).toThrow('not a fan-out run');
    expect(() => parseFanoutRun({ ...run, tag: '../x' })).toThrow('not a fan-out run');
    expect(() => parseFanoutRun(null)).toThrow('not a fan-out run');
  });
});
