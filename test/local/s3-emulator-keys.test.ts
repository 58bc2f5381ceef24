import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { sep } from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3Order } from '../storage/object-store-conformance.js';
import { BUCKET, rawRequest, startEmulatorFixture, walkFiles, type EmulatorFixture } from './emulator-fixture.js';

/** A name no other test uses, to look for outside the emulator's folder. */
const ESCAPE = `cg-escape-${randomBytes(4).toString('hex')}`;

/** Keys s3rver used to resolve as paths (or refuse); S3 stores every one literally. */
const HOSTILE = [
  'published/y', 'staging/x/../../published/y', 'a', 'a/b', 'a/', 'a/../b', 'a/./b', 'a//b', '//', '/', '/leading', '.', '..',
  `../../../../../../../../${ESCAPE}`, 'a/%2e%2e/b', 'a/%252e/b', '%', '%+', 'a%+/b', 'caf\u00e9', 'cafe\u0301', 'x', 'x._S3rver_object',
  'x._S3rver_object/y', 'x._S3rver_metadata.json', '.abc123.writing', 'sp ace+plus=eq&amp', "it's", 'a:b*c?d"e<f>g|h\\i', 'tab\tand\u0001',
  'x'.repeat(300), `${'x'.repeat(300)}/z`, `${'x'.repeat(250)}`, 'é'.repeat(300), '名前/データ.parquet',
];

let fixture: EmulatorFixture;

beforeAll(async () => {
  fixture = await startEmulatorFixture();
  for (const key of HOSTILE) await fixture.put(key, `body of ${key}`);
});

afterAll(() => fixture?.close());

/** What S3 lists: keys under the prefix, those with the delimiter after it rolled up. */
function expectedListing(prefix: string, delimiter?: string): { keys: string[]; prefixes: string[] } {
  const under = s3Order(HOSTILE).filter((key) => key.startsWith(prefix));
  const rolled = (key: string) => {
    const at = delimiter ? key.indexOf(delimiter, prefix.length) : -1;
    return at === -1 ? undefined : key.slice(0, at + delimiter!.length);
  };
  return { keys: under.filter((key) => rolled(key) === undefined), prefixes: [...new Set(under.map(rolled).filter((p) => p !== undefined))] };
}

describe('keys stored literally', () => {
  it('reads every hostile key back byte for byte, with its own size', async () => {
    for (const key of HOSTILE) {
      expect((await fixture.read(key)).toString('utf8'), key).toBe(`body of ${key}`);
      const head = await fixture.client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
      expect(head.ContentLength, key).toBe(Buffer.byteLength(`body of ${key}`));
    }
  });

  it('never writes outside the bucket folder', async () => {
    const files = await walkFiles(fixture.base);
    expect(files.filter((file) => !file.startsWith(`${fixture.dir}${sep}${BUCKET}${sep}`))).toEqual([]);
    expect(await readdir(fixture.base)).toEqual(['root']);
    for (const suspect of [`/${ESCAPE}._S3rver_object`, `${fixture.base}${sep}${ESCAPE}._S3rver_object`]) expect(existsSync(suspect)).toBe(false);
  });

  it('keeps a key that walks up with .. apart from the key it names', async () => {
    expect((await fixture.read('published/y')).toString()).toBe('body of published/y');
  });

  it('decodes a path once, as S3 does: %2e%2e on the wire is the key .., %252e the key %2e', async () => {
    const wire = await rawRequest(fixture.emulator.endpoint, 'PUT', `/${BUCKET}/%2e%2e/%2e%2e/%2e%2e/${ESCAPE}-wire`, 'wire');
    expect(wire.status).toBe(200);
    expect(await readdir(fixture.base)).toEqual(['root']);
    expect((await fixture.read(`../../../${ESCAPE}-wire`)).toString()).toBe('wire');
    expect((await fixture.read('a/%2e%2e/b')).toString()).toBe('body of a/%2e%2e/b');
    await fixture.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: `../../../${ESCAPE}-wire` }));
  });

  it('lists every key in UTF-8 byte order, across pages', async () => {
    expect(await fixture.listAll()).toEqual(expectedListing(''));
  });

  it.each(['', 'a', 'a/', 'x', 'x'.repeat(250), `${'x'.repeat(300)}/`, '/', '.', 'é'.repeat(100)])('lists prefix %j by delimiter as S3 does', async (prefix) => {
    expect(await fixture.listAll(prefix, '/')).toEqual(expectedListing(prefix, '/'));
    expect(await fixture.listAll(prefix)).toEqual(expectedListing(prefix));
  });

  it('deletes a hostile key without touching the key it looks like, and tidies its folders', async () => {
    await fixture.put('tidy/../z/deep/key', 'gone soon');
    await fixture.client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: 'tidy/../z/deep/key' }));
    await expect(fixture.read('tidy/../z/deep/key')).rejects.toMatchObject({ name: 'NoSuchKey' });
    expect((await fixture.listAll('tidy')).keys).toEqual([]);
    expect((await readdir(`${fixture.dir}/${BUCKET}`)).filter((name) => name.startsWith('tidy'))).toEqual([]);
    expect((await fixture.read('a/../b')).toString()).toBe('body of a/../b');
  });

  it('answers a path naming no safe bucket with NoSuchBucket and writes nothing', async () => {
    for (const bucket of ['%2e%2e', '..', '.', `${BUCKET}%2F..`]) {
      const response = await rawRequest(fixture.emulator.endpoint, 'PUT', `/${bucket}/${ESCAPE}-bucket`, 'x');
      expect(response.status, bucket).toBe(404);
      expect(response.text).toContain('<Code>NoSuchBucket</Code>');
    }
    expect(await readdir(fixture.base)).toEqual(['root']);
  });
});

describe('key length', () => {
  it('takes a key of exactly 1,024 UTF-8 bytes', async () => {
    const key = `${'é'.repeat(500)}${'k'.repeat(24)}`;
    expect(Buffer.byteLength(key)).toBe(1024);
    await fixture.put(key, 'max');
    expect((await fixture.read(key)).toString()).toBe('max');
  });

  it('refuses a key of 1,025 bytes with KeyTooLongError', async () => {
    const key = `${'é'.repeat(512)}k`;
    await expect(fixture.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'x' }))).rejects.toMatchObject({
      name: 'KeyTooLongError',
      $metadata: { httpStatusCode: 400 },
    });
    await expect(fixture.read(key)).rejects.toMatchObject({ name: 'KeyTooLongError' });
  });
});
