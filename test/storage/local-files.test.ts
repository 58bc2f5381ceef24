import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { localPartitionFile } from '../../lib/storage/local-files.js';

const dir = mkdtempSync(join(tmpdir(), 'cg-local-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bytes = Uint8Array.from({ length: 5_000 }, (_, i) => (i * 31 + 7) & 0xff);
const path = join(dir, 'part-0.bin');
writeFileSync(path, bytes);

describe('a local partition file', () => {
  it('reads a range into a buffer it is given, at the offset given, leaving the rest alone', async () => {
    const { source, close } = await localPartitionFile(path, bytes.length).open();
    const target = new Uint8Array(3_010).fill(0xee);
    await source.readInto!(1_000, 4_000, target, 5);
    await close();
    expect(target.subarray(5, 3_005)).toEqual(bytes.subarray(1_000, 4_000));
    expect([...target.subarray(0, 5), ...target.subarray(3_005)]).toEqual(Array(10).fill(0xee));
  });

  it('reads a file cut short since it was listed as zeros past its end, as its slices always have', async () => {
    const { source, close } = await localPartitionFile(path, bytes.length + 3_000).open();
    const slice = new Uint8Array(await source.slice(4_000, 8_000));
    const target = new Uint8Array(4_000).fill(0xee);
    await source.readInto!(4_000, 8_000, target, 0);
    await close();
    const expected = new Uint8Array(4_000);
    expected.set(bytes.subarray(4_000));
    expect(slice).toEqual(expected);
    expect(target).toEqual(expected);
  });
});
