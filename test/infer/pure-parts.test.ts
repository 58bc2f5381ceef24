import { describe, expect, it } from 'vitest';
import { guessDataset, guessPartition } from '../../lib/infer/partition-naming.js';
import { roundDown, roundUp } from '../../lib/infer/round-outward.js';
import { inferVolume } from '../../lib/infer/infer-volume.js';

describe('rounding observed bounds outward', () => {
  it.each([
    [999.87, 990, 1000], [0.07, 0.07, 0.07], [1234, 1200, 1300], [-3.14159, -3.2, -3.1], [0, 0, 0], [30.79, 30, 31],
  ])('%d → [%d, %d], never inward', (value, down, up) => {
    expect(roundDown(value)).toBe(down);
    expect(roundUp(value)).toBe(up);
    expect(roundDown(value)).toBeLessThanOrEqual(value);
    expect(roundUp(value)).toBeGreaterThanOrEqual(value);
  });

  it('keeps whole-number bounds whole', () => {
    expect([roundDown(7, true), roundUp(7, true), roundUp(1234, true)]).toEqual([7, 7, 1300]);
  });
});

describe('the volume band', () => {
  it('is half the smallest partition to twice the largest', () => {
    expect(inferVolume([1200, 1500])).toMatchObject({ minRows: 600, maxRows: 3000 });
    expect(inferVolume([1])).toMatchObject({ maxRows: 2 });
    expect(inferVolume([1])?.minRows).toBeUndefined();
  });
});

describe('partition folders', () => {
  it('reads a template and each partition\'s values from the folder names', () => {
    const guess = guessPartition(['a/orders/dt=2026-11-29', 'a/orders/dt=2026-11-30']);
    expect(guess.template).toBe('dt={ds}');
    expect(guess.values).toEqual([{ ds: '2026-11-29' }, { ds: '2026-11-30' }]);
    expect(guessPartition(['x/dt=2026-11-29/hr=06', 'x/dt=2026-11-29/region=eu/hr=07']).note).toMatch(/^TODO: /);
    expect(guessPartition(['x/dt=2026-11-29/region=eu', 'x/dt=2026-11-30/region=eu']).template).toBe('dt={ds}/region=eu');
  });

  it('names the dataset after the folder above, skipping the gate\'s v<major> folder', () => {
    expect(guessDataset('staging/orders/v2/dt=2026-11-29')).toEqual({ name: 'orders', major: 2 });
    expect(guessDataset('data/Click Stream/dt=2026-11-29')).toEqual({ name: 'click_stream' });
    expect(guessDataset('dt=2026-11-29')).toEqual({});
  });
});
