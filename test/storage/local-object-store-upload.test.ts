import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';
import { md5Etag } from './object-store-conformance.js';

async function* yielding(chunks: readonly Uint8Array[], failure?: { after: number; error: Error }): AsyncGenerator<Uint8Array> {
  for (const [index, chunk] of chunks.entries()) {
    if (index === failure?.after) throw failure.error;
    yield chunk;
  }
}

describe('the local object store uploading chunks', () => {
  let base: string;
  let root: string;
  let store: ObjectStore;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'local-upload-'));
    root = join(base, 'bucket');
    store = localObjectStore({ root });
  });
  afterEach(() => rm(base, { recursive: true, force: true }));

  it('writes the bytes of every chunk, with the ETag put gives the same bytes', async () => {
    const chunks = [randomBytes(3 * 1024 ** 2), new Uint8Array(0), randomBytes(17), randomBytes(1024)];
    const whole = Buffer.concat(chunks);
    const uploaded = await store.upload!('published/part-0.parquet', yielding(chunks));
    const put = await store.put('copy/part-0.parquet', whole);
    expect(uploaded).toEqual({ etag: put.etag, size: whole.length });
    expect(uploaded.etag).toBe(md5Etag(whole));
    expect(await store.head('published/part-0.parquet')).toMatchObject({ size: whole.length, etag: put.etag });
    expect(Buffer.from((await readWhole(store, 'published/part-0.parquet'))!).equals(whole)).toBe(true);
  });

  it('writes an empty object for no chunks', async () => {
    expect(await store.upload!('empty.bin', yielding([]))).toEqual({ etag: md5Etag(''), size: 0 });
    expect(await store.head('empty.bin')).toMatchObject({ size: 0 });
  });

  it('replaces an existing object whole', async () => {
    await store.put('a.bin', 'old');
    await store.upload!('a.bin', yielding([new TextEncoder().encode('new '), new TextEncoder().encode('bytes')]));
    expect(new TextDecoder().decode(await readWhole(store, 'a.bin'))).toBe('new bytes');
  });

  it('leaves the old object and no temp file when the chunks fail half-way', async () => {
    await store.put('a.bin', 'old');
    const failed = store.upload!('a.bin', yielding([randomBytes(10), randomBytes(10), randomBytes(10)], { after: 2, error: new Error('the writer broke') }));
    await expect(failed).rejects.toMatchObject({ name: 'GateError', code: 'storage_failed', message: expect.stringContaining('the writer broke') });
    expect(new TextDecoder().decode(await readWhole(store, 'a.bin'))).toBe('old');
    expect(await readdir(root)).toEqual(['a.bin']);
  });

  it('does not mistake a producer failing with ENOENT for a vanished folder and write what was left', async () => {
    const missing = Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
    const failed = store.upload!('a.bin', yielding([randomBytes(10), randomBytes(10)], { after: 1, error: missing }));
    await expect(failed).rejects.toMatchObject({ code: 'storage_failed', cause: missing });
    expect(await store.head('a.bin')).toBeUndefined();
  });

  it('refuses an unsafe key before it takes a chunk', async () => {
    let pulled = 0;
    async function* counted(): AsyncGenerator<Uint8Array> {
      pulled++;
      yield new Uint8Array(1);
    }
    await expect(store.upload!('../escape', counted())).rejects.toMatchObject({ code: 'bad_arguments' });
    expect(pulled).toBe(0);
    expect(await readdir(base)).toEqual([]);
  });
});
