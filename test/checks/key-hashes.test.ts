import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { confirmDuplicates } from '../../lib/checks/confirm-duplicates.js';
import { hashParts, hashValue } from '../../lib/checks/key-hash.js';
import { KeyHashes } from '../../lib/checks/key-hashes.js';
import { PartitionState } from '../../lib/checks/partition-state.js';
import { contractFrom, memoryFile } from '../fixtures/partition.js';

describe('KeyHashes', () => {
  it('names exactly the rows whose hashes repeat, ignoring rows without a key', () => {
    const hashes = new KeyHashes();
    for (const hash of [5, 9, NaN, 5, NaN, 12, 9, 5]) hashes.push(hash);
    hashes.pushMissing(3);
    expect(Array.from(hashes.candidates())).toEqual([0, 1, 3, 6, 7]);
  });

  it('finds one repeat among a million distinct keys', () => {
    const hashes = new KeyHashes();
    for (let i = 0; i < 1_000_000; i++) hashes.push(hashValue(`ord_${i}`));
    hashes.push(hashValue('ord_123456'));
    expect(Array.from(hashes.candidates())).toEqual([123_456, 1_000_000]);
  });

  it('names every row of keys repeated across thousands of tiny segments, in row order', () => {
    const hashes = new KeyHashes();
    // 10,000 segments of two rows (a partition of tiny files); key i % 1,000 makes every row a repeat.
    for (let i = 0; i < 20_000; i += 2) hashes.pushAll(Float64Array.of(hashValue(`k${i % 1_000}`), i === 4_000 ? NaN : hashValue(`k${(i + 1) % 1_000}`)));
    hashes.push(hashValue('unique'));
    const expected = Array.from({ length: 20_000 }, (_, i) => i).filter((i) => i !== 4_001);
    expect(Array.from(hashes.candidates())).toEqual(expected);
  });

  it('finds a repeat whose two rows sit in different large segments', () => {
    const hashes = new KeyHashes();
    const first = Float64Array.from({ length: 300_000 }, (_, i) => hashValue(i));
    const second = Float64Array.from({ length: 300_000 }, (_, i) => hashValue(300_000 + i));
    second[299_999] = first[0]!;
    hashes.pushAll(first);
    hashes.pushAll(second);
    expect(Array.from(hashes.candidates())).toEqual([0, 599_999]);
  });
});

describe('key hashing', () => {
  it('hashes one int64 value alike whether it arrives as number or bigint', () => {
    expect(hashValue(42n)).toBe(hashValue(42));
    expect(hashValue(-0)).toBe(hashValue(0));
  });

  it('keeps composite parts apart so (a, bc) and (ab, c) differ', () => {
    expect(hashParts(['a', 'bc'])).not.toBe(hashParts(['ab', 'c']));
    expect(hashParts(['a', 'bc'])).toBe(hashParts(['a', 'bc']));
  });
});

describe('confirmDuplicates', () => {
  const contract = contractFrom(`
name: t
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  grain: [id]
  columns:
    - { name: id, type: string }
`);

  /** Forces every row into one hash bucket, as if every key collided. */
  function collidingState(rowsPerFile: number[]) {
    const state = new PartitionState(buildCheckPlan(contract, 0));
    rowsPerFile.forEach((rows, i) => {
      state.fileStarts[i] = state.scanned;
      for (let r = 0; r < rows; r++) state.keySets[0]!.hashes.push(7);
      state.scanned += rows;
    });
    return state;
  }

  it('never fails a partition for a hash collision between different values', async () => {
    const state = collidingState([3]);
    await confirmDuplicates(state, [memoryFile('a.csv', 'id\nx\ny\nz\n')]);
    expect(state.log.violations()).toEqual([]);
  });

  it('reports real duplicates among colliding rows with every occurrence in file order', async () => {
    const state = collidingState([3, 2]);
    await confirmDuplicates(state, [memoryFile('a.csv', 'id\nx\ny\nx\n'), memoryFile('b.csv', 'id\nz\ny\n')]);
    expect(state.log.violations()).toEqual([{
      rule: 'grain', severity: 'error', count: 2, message: '2 values of the grain (id) occur more than once',
      samples: [
        { file: 'a.csv', row: 0, value: 'x' }, { file: 'a.csv', row: 1, value: 'y' },
        { file: 'a.csv', row: 2, value: 'x' }, { file: 'b.csv', row: 1, value: 'y' },
      ],
    }]);
  });
});

describe('hashing key bytes', () => {
  it('gives a key the same hash as its UTF-8 bytes, so a column hashed from page data and one decoded to strings agree', async () => {
    const { hashBytes, hashByteRange, hashString } = await import('../../lib/checks/key-hash.js');
    for (const key of ['ord_0000002a', 'café', '北京-7', 'emoji 🎉', '', 'a', 'ab', 'abc', 'abcd', 'abcde', 'abcdefg', 'abcdefgh', 'abcdefghi', 'abc\u00e9']) {
      const bytes = new TextEncoder().encode(key);
      expect(hashBytes(bytes)).toBe(hashString(key));
      const framed = new Uint8Array([9, 9, ...bytes, 9]);
      expect(hashByteRange(framed, 2, 2 + bytes.length)).toBe(hashString(key));
    }
    expect(hashBytes(new TextEncoder().encode('a'))).not.toBe(hashBytes(new TextEncoder().encode('b')));
    expect(hashString('é')).not.toBe(hashString('e'));
    expect(new Set(['', '\0', '\0\0', '\0\0\0', '\0\0\0\0', 'a', 'a\0'].map((key) => hashString(key))).size).toBe(7);
  });
});
