import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dryRunStore } from '../../lib/cli/dry-run-store.js';
import { CALL_MARGIN_MS, deadlineStore } from '../../lib/gate/deadline-store.js';
import { readOnlyStore } from '../../lib/replay/read-only-store.js';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import { readWhole, uploadChunks, type ObjectStore } from '../../lib/storage/object-store.js';
import { Crash, crashingStore } from '../fixtures/crashing-store.js';
import { interferingStore } from '../fixtures/interfering-store.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

/*
 * The stores that wrap another (deadline, dry run, replay, and the test fixtures) give an upload
 * the treatment they give a put. Together here because each is a few lines of the same change.
 */

const DEADLINE = 1_000_000;
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);

/** Three chunks of text; `onPull` runs as each is asked for, so a test can move its clock. */
function chunks(onPull: (index: number) => void = () => undefined): AsyncGenerator<Uint8Array> & { pulled: () => number } {
  let pulled = 0;
  async function* generate(): AsyncGenerator<Uint8Array> {
    for (const part of ['a,', 'b,', 'c\n']) {
      onPull(pulled++);
      yield new TextEncoder().encode(part);
    }
  }
  return Object.assign(generate(), { pulled: () => pulled });
}

let dir: string;
let inner: ObjectStore;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'upload-wrappers-'));
  inner = localObjectStore({ root: dir });
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('a deadline store uploading', () => {
  it('passes an upload to the store it wraps while there is time', async () => {
    const upload = vi.spyOn(inner, 'upload');
    const store = deadlineStore(inner, DEADLINE, () => 0);
    expect(await uploadChunks(store, 'a.csv', chunks())).toMatchObject({ size: 6 });
    expect(upload).toHaveBeenCalledOnce();
    expect(text(await readWhole(inner, 'a.csv'))).toBe('a,b,c\n');
  });

  it('starts no upload too near the deadline, and takes no chunk', async () => {
    const store = deadlineStore(inner, DEADLINE, () => DEADLINE - CALL_MARGIN_MS + 1);
    const source = chunks();
    await expect(uploadChunks(store, 'a.csv', source)).rejects.toMatchObject({ code: 'deadline' });
    expect(source.pulled()).toBe(0);
  });

  it('stops between parts when the deadline comes near, leaving no object', async () => {
    let now = 0;
    const store = deadlineStore(inner, DEADLINE, () => now);
    const source = chunks((index) => (now = index === 1 ? DEADLINE : now));
    await expect(uploadChunks(store, 'a.csv', source)).rejects.toMatchObject({ code: 'deadline' });
    expect(source.pulled()).toBe(2);
    expect(await inner.head('a.csv')).toBeUndefined();
  });

  it('guards the put an upload falls back to on a store without upload', async () => {
    const store = deadlineStore(new MemoryObjectStore(), DEADLINE, () => DEADLINE);
    expect(store.upload).toBeUndefined();
    await expect(uploadChunks(store, 'a.csv', chunks())).rejects.toMatchObject({ code: 'deadline' });
  });
});

describe('a replay store uploading', () => {
  it('refuses an upload before it takes a chunk', async () => {
    const source = chunks();
    await expect(uploadChunks(readOnlyStore(inner), 'a.csv', source)).rejects.toMatchObject({ code: 'internal', message: expect.stringContaining('tried to upload') });
    expect(source.pulled()).toBe(0);
    expect(await inner.head('a.csv')).toBeUndefined();
  });
});

describe('a dry-run store uploading', () => {
  it('keeps the uploaded bytes in memory and leaves the bucket unchanged', async () => {
    const store = dryRunStore(inner);
    await uploadChunks(store, 'a.csv', chunks());
    expect(text(await readWhole(store, 'a.csv'))).toBe('a,b,c\n');
    expect(await inner.head('a.csv')).toBeUndefined();
  });
});

describe('the test stores uploading', () => {
  it('count an upload as one mutating call, and crash before it', async () => {
    const counting = crashingStore(inner);
    await uploadChunks(counting, 'a.csv', chunks());
    expect(counting.mutations).toBe(1);
    await expect(uploadChunks(crashingStore(inner, 1), 'b.csv', chunks())).rejects.toBeInstanceOf(Crash);
    expect(await inner.head('b.csv')).toBeUndefined();
  });

  it('let a producer act before an upload as before a put of the key', async () => {
    const act = vi.fn(async () => {
      await inner.put('other.csv', 'x');
    });
    const store = interferingStore(inner, (call, key) => call === 'put' && key === 'a.csv', act);
    await uploadChunks(store, 'a.csv', chunks());
    expect(store.acted).toBe(true);
    expect(act).toHaveBeenCalledOnce();
  });
});
