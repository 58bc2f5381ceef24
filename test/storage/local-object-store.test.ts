import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { describeObjectStoreConformance, listKeys, md5Etag } from './object-store-conformance.js';

describeObjectStoreConformance('the local object store', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'local-object-store-'));
  return { store: localObjectStore({ root: join(dir, 'bucket') }), teardown: () => rm(dir, { recursive: true, force: true }) };
});

/** Every file below a directory, relative to it, so a test can see exactly what was written. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => !entry.isDirectory()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort();
}

describe('the local object store on disk', () => {
  let base: string;
  let root: string;
  let store: ObjectStore;
  beforeEach(async () => {
    base = await mkdtemp(join(tmpdir(), 'local-object-store-'));
    root = join(base, 'bucket');
    store = localObjectStore({ root });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await rm(base, { recursive: true, force: true });
  });

  it('names itself by a file URL of its root', () => {
    expect(store.location).toBe(`file://${root}`);
  });

  it('rejects keys that could leave the root and writes nothing outside it', async () => {
    const unsafe = ['', '..', '../escape', decodeURIComponent('%2e%2e/escape'), 'a/../../escape', 'a/..', '/etc/passwd', join(base, 'escape'), './a', 'a//b', 'a/', 'a\0b', 'a\\..\\..\\escape', '.cg~tmp~x'];
    await store.put('inside.csv', 'x');
    for (const key of unsafe) {
      const attempts = [
        store.put(key, 'payload'),
        store.head(key),
        store.read(key, 0, 1),
        store.copy('inside.csv', key),
        store.copy(key, 'copied.csv'),
        store.delete(key),
      ];
      for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ name: 'GateError', code: 'bad_arguments' });
    }
    expect(await readdir(base)).toEqual(['bucket']);
    expect(await filesBelow(root)).toEqual(['inside.csv']);
  });

  it('treats a literal percent-encoded dot segment as an ordinary name inside the root', async () => {
    await store.put('%2e%2e/escape', 'kept inside');
    expect(await filesBelow(root)).toEqual([join('%2e%2e', 'escape')]);
    expect(await listKeys(store, '')).toEqual(['%2e%2e/escape']);
  });

  it('refuses to follow a symbolic link out of the root', async () => {
    const outside = join(base, 'outside');
    await mkdir(outside);
    await writeFile(join(outside, 'secret'), 'secret');
    await mkdir(root);
    await symlink(outside, join(root, 'link'));
    await symlink(join(outside, 'secret'), join(root, 'secret'));

    await expect(store.put('link/new.csv', 'x')).rejects.toMatchObject({ code: 'bad_arguments' });
    await expect(store.put('link/deeper/new.csv', 'x')).rejects.toMatchObject({ code: 'bad_arguments' });
    await expect(store.read('link/secret', 0, 6)).rejects.toMatchObject({ code: 'bad_arguments' });
    await expect(store.read('secret', 0, 6)).rejects.toMatchObject({ code: 'not_found' });
    expect(await store.head('secret')).toBeUndefined();
    expect(await listKeys(store, '')).toEqual([]);
    expect(await readdir(outside)).toEqual(['secret']);
  });

  it('leaves no partial file visible when a put fails half way', async () => {
    await store.put('data/part-0.csv', 'old complete content');
    const handle = await open(join(root, 'data', 'part-0.csv'), 'r');
    const fileHandle = Object.getPrototypeOf(handle) as { writeFile(data: Uint8Array): Promise<void> };
    await handle.close();
    vi.spyOn(fileHandle, 'writeFile').mockImplementation(async function (this: { write(data: Uint8Array): Promise<unknown> }, data) {
      await this.write(data.subarray(0, data.length / 2));
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    });

    await expect(store.put('data/part-1.csv', 'new content that never lands')).rejects.toMatchObject({ code: 'storage_failed' });
    await expect(store.put('data/part-0.csv', 'replacement that never lands')).rejects.toMatchObject({ code: 'storage_failed' });
    vi.restoreAllMocks();

    expect(await store.head('data/part-1.csv')).toBeUndefined();
    expect(await listKeys(store, '')).toEqual(['data/part-0.csv']);
    expect(Buffer.from(await store.read('data/part-0.csv', 0, 100)).toString()).toBe('old complete content');
    expect(await filesBelow(root)).toEqual([join('data', 'part-0.csv')]);
  });

  it('computes the MD5 ETag of a file another tool placed in the root and notices when it changes', async () => {
    await mkdir(join(root, 'dropped'), { recursive: true });
    await writeFile(join(root, 'dropped', 'a.csv'), 'first');
    expect((await store.head('dropped/a.csv'))?.etag).toBe(md5Etag('first'));
    // Same size, rewritten in place: only the mtime tells the cache the bytes changed.
    await writeFile(join(root, 'dropped', 'a.csv'), 'again');
    await utimes(join(root, 'dropped', 'a.csv'), new Date(), new Date(Date.now() + 5_000));
    expect((await store.head('dropped/a.csv'))?.etag).toBe(md5Etag('again'));
  });

  it('prunes directories left empty by a delete, up to but not including the root', async () => {
    await store.put('a/b/c/d.csv', 'x');
    await store.put('a/keep.csv', 'y');
    await store.delete('a/b/c/d.csv');
    expect(await readdir(join(root, 'a'))).toEqual(['keep.csv']);
    await store.delete('a/keep.csv');
    expect(await readdir(root)).toEqual([]);
  });

  it('lists no temp or lock files left behind by a crashed writer', async () => {
    await store.put('p/a.csv', 'x');
    await writeFile(join(root, 'p', '.cg~tmp~0123'), 'partial');
    await writeFile(join(root, 'p', '.cg~lock~0123'), '');
    expect(await listKeys(store, '')).toEqual(['p/a.csv']);
  });

  it('cannot store an object below the key of another object, unlike S3', async () => {
    await store.put('a', 'object');
    await expect(store.put('a/b', 'below')).rejects.toMatchObject({ code: 'storage_failed' });
    expect(await store.head('a/b')).toBeUndefined();
  });

  it('lets exactly one of several processes create a key with ifNoneMatch', async () => {
    const module = new URL('../../lib/storage/local-object-store.ts', import.meta.url).href;
    const startAt = Date.now() + 1_500;
    const script = `
      const { localObjectStore } = await import(${JSON.stringify(module)});
      const store = localObjectStore({ root: ${JSON.stringify(root)} });
      while (Date.now() < ${startAt}) await new Promise((resolve) => setTimeout(resolve, 1));
      const outcome = await store.put('race/_SUCCESS', String(process.pid), { ifNoneMatch: '*' }).then(() => 'won', (error) => error.code);
      process.stdout.write(outcome);`;
    const run = () => promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script]);
    const outcomes = (await Promise.all(Array.from({ length: 6 }, run))).map(({ stdout }) => stdout);
    expect(outcomes.sort()).toEqual(['precondition_failed', 'precondition_failed', 'precondition_failed', 'precondition_failed', 'precondition_failed', 'won']);
    expect(await filesBelow(root)).toEqual([join('race', '_SUCCESS')]);
  });
});
