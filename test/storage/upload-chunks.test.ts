import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import { uploadChunks } from '../../lib/storage/object-store.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';
import { md5Etag } from './object-store-conformance.js';

const encode = (text: string) => new TextEncoder().encode(text);

async function* yielding(chunks: readonly Uint8Array[], failAfter = Infinity): AsyncGenerator<Uint8Array> {
  for (const [index, chunk] of chunks.entries()) {
    if (index === failAfter) throw new Error('the writer broke');
    yield chunk;
  }
}

describe('uploading chunks to any store', () => {
  it('joins the chunks into one put on a store without upload, returning its ETag and the size', async () => {
    const store = new MemoryObjectStore();
    const put = vi.spyOn(store, 'put');
    const uploaded = await uploadChunks(store, 'a.csv', yielding([encode('id\n'), encode(''), encode('1\n2\n')]), { contentType: 'text/csv' });
    expect(uploaded).toEqual({ etag: md5Etag('id\n1\n2\n'), size: 7 });
    expect(store.text('a.csv')).toBe('id\n1\n2\n');
    expect(put).toHaveBeenCalledOnce();
    expect(put.mock.calls[0]?.[2]).toEqual({ contentType: 'text/csv' });
  });

  it('puts nothing and reports storage_failed with the cause when the chunks fail on a store without upload', async () => {
    const store = new MemoryObjectStore();
    const failed = uploadChunks(store, 'a.csv', yielding([encode('id\n'), encode('1\n')], 1));
    await expect(failed).rejects.toMatchObject({ name: 'GateError', code: 'storage_failed', cause: expect.objectContaining({ message: 'the writer broke' }) });
    expect(store.keys()).toEqual([]);
  });

  it('streams through the store upload when it has one, without a put', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'upload-chunks-'));
    try {
      const store = localObjectStore({ root: dir });
      const put = vi.spyOn(store, 'put');
      const uploaded = await uploadChunks(store, 'a.csv', yielding([encode('id\n'), encode('1\n')]));
      expect(uploaded).toEqual({ etag: md5Etag('id\n1\n'), size: 5 });
      expect(put).not.toHaveBeenCalled();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
