import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it as vitestIt } from 'vitest';
import type { ObjectInfo, ObjectStore } from '../../lib/storage/object-store.js';

export interface ObjectStoreFixture {
  store: ObjectStore;
  teardown(): Promise<void>;
}

/** S3's list order: UTF-8 bytes, which is neither locale order nor JavaScript's code-unit order. */
export function s3Order(keys: readonly string[]): string[] {
  return [...keys].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

export function md5Etag(body: Uint8Array | string): string {
  return `"${createHash('md5').update(body).digest('hex')}"`;
}

export async function listKeys(store: ObjectStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const info of store.list(prefix)) keys.push(info.key);
  return keys;
}

async function listAll(store: ObjectStore, prefix: string): Promise<ObjectInfo[]> {
  const found: ObjectInfo[] = [];
  for await (const info of store.list(prefix)) found.push(info);
  return found;
}

async function text(store: ObjectStore, key: string): Promise<string> {
  const info = await store.head(key);
  if (!info) throw new Error(`${key} is missing`);
  return Buffer.from(await store.read(key, 0, info.size)).toString('utf8');
}

/** Runs at most `limit` of the tasks at once, so a thousand puts do not open a thousand sockets. */
async function inBatches<T>(items: readonly T[], limit: number, task: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += limit) await Promise.all(items.slice(i, i + limit).map(task));
}

const BINARY = new Uint8Array([...Array.from({ length: 256 }, (_, i) => i), 0, 0, 0xff, 0xfe, 0x80, 0x0d, 0x0a]);
const ODD_KEYS = ['odd/with space.csv', 'odd/a+b=c.csv', 'odd/100%/x.csv', 'odd/ü/日本語 ✓.parquet', 'odd/emoji 😀+%20.bin'];

/**
 * The behaviour every ObjectStore adapter must share, run against each one so the local
 * store stays a faithful stand-in for S3. `setup` gives each test an empty store.
 */
export function describeObjectStoreConformance(
  name: string,
  setup: () => Promise<ObjectStoreFixture>,
  options: { knownGaps?: readonly string[] } = {},
): void {
  // A known gap runs as it.fails: it stays visible, and the suite goes red once the gap closes.
  const titles = new Set<string>();
  const it = (title: string, body: () => Promise<void>) => {
    titles.add(title);
    (options.knownGaps?.includes(title) ? vitestIt.fails : vitestIt)(title, body);
  };
  describe(`${name} (object-store conformance)`, () => {
    let fixture: ObjectStoreFixture;
    let store: ObjectStore;
    beforeEach(async () => {
      fixture = await setup();
      store = fixture.store;
    });
    afterEach(async () => fixture?.teardown());

    it('returns binary bytes exactly as put, with a head giving their size and MD5 ETag', async () => {
      const { etag } = await store.put('round/trip.bin', BINARY, { contentType: 'application/octet-stream' });
      const info = await store.head('round/trip.bin');
      expect(etag).toBe(md5Etag(BINARY));
      expect(info).toMatchObject({ key: 'round/trip.bin', size: BINARY.length, etag });
      expect(info?.lastModified).toBeInstanceOf(Date);
      expect(Buffer.from(await store.read('round/trip.bin', 0, BINARY.length))).toEqual(Buffer.from(BINARY));
    });

    it('stores a string body as its UTF-8 bytes', async () => {
      await store.put('round/text.csv', 'id,name\n1,Zoë ✓\n', { contentType: 'text/csv' });
      expect((await store.head('round/text.csv'))?.size).toBe(Buffer.byteLength('id,name\n1,Zoë ✓\n'));
      expect(await text(store, 'round/text.csv')).toBe('id,name\n1,Zoë ✓\n');
    });

    it('reads byte ranges at the start, in the middle and at the end of an object', async () => {
      await store.put('ranges.bin', BINARY);
      const range = async (start: number, end: number) => [...(await store.read('ranges.bin', start, end))];
      expect(await range(0, 4)).toEqual([0, 1, 2, 3]);
      expect(await range(100, 103)).toEqual([100, 101, 102]);
      expect(await range(BINARY.length - 2, BINARY.length)).toEqual([0x0d, 0x0a]);
      expect(await range(BINARY.length - 1, BINARY.length)).toEqual([0x0a]);
      expect(await range(7, 7)).toEqual([]);
    });

    it('reports a missing key as absent on head', async () => {
      await store.put('present/a.csv', 'a');
      expect(await store.head('present/b.csv')).toBeUndefined();
      expect(await store.head('present')).toBeUndefined();
      expect(await store.head('absent/a.csv')).toBeUndefined();
    });

    it('rejects a read of a missing key as not_found', async () => {
      await expect(store.read('absent/a.csv', 0, 10)).rejects.toMatchObject({ name: 'GateError', code: 'not_found' });
    });

    it('lists exactly the keys under a prefix, in UTF-8 byte order, with their sizes and ETags', async () => {
      // 'Ａ' (U+FF21) sorts after '😀' by UTF-16 code unit but before it by UTF-8 byte.
      const inside = ['p/a-b', 'p/a.csv', 'p/a/b', 'p/a/c/d', 'p/ab', 'p/b.csv', 'p/Z', 'p/é', 'p/😀', 'p/Ａ'];
      const outside = ['p.csv', 'pa/x', 'q/p/a', 'o'];
      await Promise.all([...inside, ...outside].map((key) => store.put(key, key)));
      const listed = await listAll(store, 'p/');
      expect(listed.map((info) => info.key)).toEqual(s3Order(inside));
      for (const info of listed) expect(info).toMatchObject({ size: Buffer.byteLength(info.key), etag: md5Etag(info.key) });
      expect(await listKeys(store, 'p/a/')).toEqual(['p/a/b', 'p/a/c/d']);
      expect(await listKeys(store, 'p/a')).toEqual(['p/a-b', 'p/a.csv', 'p/a/b', 'p/a/c/d', 'p/ab']);
      expect(await listKeys(store, 'nothing/')).toEqual([]);
    });

    it('lists every key under a prefix when there are more than a thousand of them', async () => {
      const keys = Array.from({ length: 1_050 }, (_, i) => `many/${String((i * 7919) % 1_050).padStart(4, '0')}.json`);
      await inBatches(keys, 25, (key) => store.put(key, '{}'));
      await store.put('many-after/x.json', '{}');
      await store.put('man/before.json', '{}');
      expect(await listKeys(store, 'many/')).toEqual(s3Order(keys));
    });

    it('lists every key when a page boundary falls among keys in nested folders', async () => {
      // A thousand keys below many/a/ fill the first page; many/a-b and many/a.csv sort before
      // them, and a lister that walks folders first and resumes after the last key loses them.
      const nested = Array.from({ length: 1_000 }, (_, i) => `many/a/${String(i).padStart(4, '0')}`);
      const keys = [...nested, 'many/a-b', 'many/a.csv', 'many/b'];
      await inBatches(keys, 25, (key) => store.put(key, '{}'));
      expect(await listKeys(store, 'many/')).toEqual(s3Order(keys));
    });

    it('refuses to overwrite an existing key when ifNoneMatch is * and leaves it unchanged', async () => {
      const first = await store.put('cond/marker', 'first', { ifNoneMatch: '*' });
      await expect(store.put('cond/marker', 'second', { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await text(store, 'cond/marker')).toBe('first');
      expect((await store.head('cond/marker'))?.etag).toBe(first.etag);
    });

    it('replaces an object when ifMatch names its current ETag', async () => {
      const first = await store.put('cond/state.json', '{"v":1}');
      const second = await store.put('cond/state.json', '{"v":2}', { ifMatch: first.etag });
      expect(second.etag).toBe(md5Etag('{"v":2}'));
      expect(await text(store, 'cond/state.json')).toBe('{"v":2}');
    });

    it('refuses a replace whose ifMatch ETag is stale and leaves the object unchanged', async () => {
      const first = await store.put('cond/state.json', '{"v":1}');
      await store.put('cond/state.json', '{"v":2}', { ifMatch: first.etag });
      await expect(store.put('cond/state.json', '{"v":3}', { ifMatch: first.etag })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await text(store, 'cond/state.json')).toBe('{"v":2}');
    });

    it('refuses an ifMatch put on an absent key and creates nothing', async () => {
      await expect(store.put('cond/absent.json', '{}', { ifMatch: md5Etag('{}') })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await store.head('cond/absent.json')).toBeUndefined();
    });

    it('copies an object byte for byte and returns the ETag of the copy', async () => {
      await store.put('copy/source.bin', BINARY);
      const { etag } = await store.copy('copy/source.bin', 'copy/deeper/target.bin');
      expect(etag).toBe(md5Etag(BINARY));
      expect(Buffer.from(await store.read('copy/deeper/target.bin', 0, BINARY.length))).toEqual(Buffer.from(BINARY));
      expect((await store.head('copy/source.bin'))?.etag).toBe(etag);
    });

    it('refuses a copy onto an existing key when ifNoneMatch is * and leaves the target unchanged', async () => {
      await store.put('copy/source.csv', 'new');
      await store.put('copy/target.csv', 'old');
      await expect(store.copy('copy/source.csv', 'copy/target.csv', { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await text(store, 'copy/target.csv')).toBe('old');
      await store.copy('copy/source.csv', 'copy/fresh.csv', { ifNoneMatch: '*' });
      expect(await text(store, 'copy/fresh.csv')).toBe('new');
    });

    it('copies over a target only when ifMatch names its current ETag', async () => {
      await store.put('copy/source.csv', 'new');
      const old = await store.put('copy/target.csv', 'old');
      await expect(store.copy('copy/source.csv', 'copy/target.csv', { ifMatch: md5Etag('stale') })).rejects.toMatchObject({ code: 'precondition_failed' });
      await expect(store.copy('copy/source.csv', 'copy/absent.csv', { ifMatch: old.etag })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await text(store, 'copy/target.csv')).toBe('old');
      await store.copy('copy/source.csv', 'copy/target.csv', { ifMatch: old.etag });
      expect(await text(store, 'copy/target.csv')).toBe('new');
    });

    it('rejects a copy of a missing source as not_found and creates no target', async () => {
      await expect(store.copy('copy/absent.csv', 'copy/target.csv')).rejects.toMatchObject({ code: 'not_found' });
      await expect(store.copy('copy/absent.csv', 'copy/target.csv', { ifNoneMatch: '*' })).rejects.toMatchObject({ code: 'not_found' });
      expect(await store.head('copy/target.csv')).toBeUndefined();
    });

    it('deletes an object so that head reports it absent and list omits it', async () => {
      await store.put('gone/a/b.csv', 'x');
      await store.put('gone/keep.csv', 'y');
      await store.delete('gone/a/b.csv');
      expect(await store.head('gone/a/b.csv')).toBeUndefined();
      expect(await listKeys(store, 'gone/')).toEqual(['gone/keep.csv']);
      await store.put('gone/a/b.csv', 'again');
      expect(await text(store, 'gone/a/b.csv')).toBe('again');
    });

    it('deletes a missing key without error', async () => {
      await expect(store.delete('never/was.csv')).resolves.toBeUndefined();
    });

    it('round-trips keys with spaces, +, =, % and unicode through put, head, list and copy', async () => {
      for (const key of ODD_KEYS) await store.put(key, key);
      expect(await listKeys(store, 'odd/')).toEqual(s3Order(ODD_KEYS));
      for (const key of ODD_KEYS) {
        const target = key.replace('odd/', 'copied/');
        expect((await store.head(key))?.size).toBe(Buffer.byteLength(key));
        await store.copy(key, target, { ifNoneMatch: '*' });
        expect(await text(store, target)).toBe(key);
      }
      expect(await listKeys(store, 'copied/')).toEqual(s3Order(ODD_KEYS.map((key) => key.replace('odd/', 'copied/'))));
    });

    it('reads a range pinned to the listed ETag, and refuses it once the object was replaced', async () => {
      const { etag } = await store.put('pin/a.csv', 'first version');
      expect(Buffer.from(await store.read('pin/a.csv', 0, 5, { ifMatch: etag })).toString()).toBe('first');
      await store.put('pin/a.csv', 'second version');
      await expect(store.read('pin/a.csv', 0, 5, { ifMatch: etag })).rejects.toMatchObject({ code: 'precondition_failed' });
      await store.delete('pin/a.csv');
      await expect(store.read('pin/a.csv', 0, 5, { ifMatch: etag })).rejects.toMatchObject({ code: 'not_found' });
    });

    it('copies only the version a sourceIfMatch names, leaving the target untouched otherwise', async () => {
      const { etag } = await store.put('pin/source.csv', 'validated bytes');
      await store.put('pin/source.csv', 'bytes nobody validated');
      await expect(store.copy('pin/source.csv', 'pin/target.csv', { sourceIfMatch: etag })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await store.head('pin/target.csv')).toBeUndefined();
      const current = await store.head('pin/source.csv');
      await store.copy('pin/source.csv', 'pin/target.csv', { sourceIfMatch: current!.etag });
      expect(await text(store, 'pin/target.csv')).toBe('bytes nobody validated');
    });

    it('deletes with ifMatch only the version named, and keeps a newer one', async () => {
      const { etag } = await store.put('pin/staged.csv', 'old');
      await store.put('pin/staged.csv', 'new');
      await expect(store.delete('pin/staged.csv', { ifMatch: etag })).rejects.toMatchObject({ code: 'precondition_failed' });
      expect(await text(store, 'pin/staged.csv')).toBe('new');
      await store.delete('pin/staged.csv', { ifMatch: md5Etag('new') });
      expect(await store.head('pin/staged.csv')).toBeUndefined();
    });

    it('lets exactly one of 16 concurrent ifNoneMatch creates of one key succeed', async () => {
      const bodies = Array.from({ length: 16 }, (_, i) => `writer ${i}`);
      const results = await Promise.allSettled(bodies.map((body) => store.put('race/_SUCCESS', body, { ifNoneMatch: '*' })));
      const won = results.flatMap((result, i) => (result.status === 'fulfilled' ? [bodies[i]!] : []));
      const lost = results.flatMap((result) => (result.status === 'rejected' ? [result.reason as { code?: string }] : []));
      expect(won).toHaveLength(1);
      expect(lost.map((error) => error.code)).toEqual(Array(15).fill('precondition_failed'));
      expect(await text(store, 'race/_SUCCESS')).toBe(won[0]);
    });

    const unknown = options.knownGaps?.filter((title) => !titles.has(title)) ?? [];
    if (unknown.length > 0) throw new Error(`knownGaps name no conformance test: ${unknown.join('; ')}`);
  });
}
