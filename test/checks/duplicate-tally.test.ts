import { describe, expect, it } from 'vitest';
import { DuplicateTally } from '../../lib/checks/duplicate-tally.js';
import { MAX_SAMPLES } from '../../lib/report/report.js';

const sample = (row: number) => ({ fileIndex: 0, row, sample: { file: 'f', row, value: row } });

/** Adds every row of the columns with one forced hash per row, keeping samples as the gate does. */
function tallyOf(columns: unknown[][], hashOf: (row: number) => number): DuplicateTally {
  const tally = new DuplicateTally(columns[0]!.length);
  for (let row = 0; row < columns[0]!.length; row++) {
    const group = tally.add(hashOf(row), columns, row);
    if (tally.wantsSample()) tally.keep(group, sample(row));
  }
  return tally;
}

describe('DuplicateTally', () => {
  it('counts a key once however often it repeats, and keys seen once not at all', () => {
    const summary = tallyOf([['a', 'b', 'a', 'c', 'a', 'b']], (row) => ['a', 'b', 'a', 'c', 'a', 'b'][row]!.charCodeAt(0)).summary();
    expect(summary.count).toBe(2);
    expect(summary.samples.map((s) => s.row)).toEqual([0, 1, 2, 4, 5]);
  });

  it('never counts different keys with one hash as a duplicate', () => {
    const summary = tallyOf([['x', 'y', 'z', 'x']], () => 42).summary();
    expect(summary.count).toBe(1);
    expect(summary.samples.map((s) => s.row)).toEqual([0, 3]);
  });

  it('compares by type: the text "1" is not the number 1, an int64 that fits is its number, -0 is 0, text is its UTF-8 bytes', () => {
    expect(tallyOf([['1', 1]], () => 7).summary().count).toBe(0);
    expect(tallyOf([[1n, 1]], () => 7).summary().count).toBe(1);
    expect(tallyOf([[-0, 0]], () => 7).summary().count).toBe(1);
    // One text key column may come as strings from one page and UTF-8 bytes from another.
    expect(tallyOf([[new TextEncoder().encode('Zürich'), 'Zürich']], () => 7).summary().count).toBe(1);
    expect(tallyOf([[new Uint8Array([97]), 'b']], () => 7).summary().count).toBe(0);
    expect(tallyOf([[2n ** 63n - 1n, 2n ** 63n - 1n]], () => 7).summary().count).toBe(1);
  });

  it('keeps composite parts apart: ("ab", "c") and ("a", "bc") differ', () => {
    expect(tallyOf([['ab', 'a'], ['c', 'bc']], () => 7).summary().count).toBe(0);
    expect(tallyOf([['ab', 'ab'], ['c', 'c']], () => 7).summary().count).toBe(1);
  });

  it('counts non-ASCII keys by their exact text', () => {
    expect(tallyOf([['Zürich', 'Zurich', 'Zürich', '東京', '東京']], () => 7).summary().count).toBe(2);
  });

  it('counts a million repeated keys exactly while keeping only a few samples', () => {
    const keys = 1_000_000;
    const column = Array.from({ length: 2 * keys }, (_, i) => `k${i % keys}`);
    const summary = tallyOf([column], (row) => (row % keys) * 7919).summary();
    expect(summary.count).toBe(keys);
    expect(summary.samples.map((s) => s.row)).toEqual([0, 1, 2, 3, 4].slice(0, MAX_SAMPLES));
  });

  it('grows past the rows it was sized for', () => {
    const tally = new DuplicateTally(2);
    const column = Array.from({ length: 6000 }, (_, i) => `v${i % 3000}`);
    for (let row = 0; row < column.length; row++) tally.add(row % 3000, [column], row);
    expect(tally.summary().count).toBe(3000);
  });
});
