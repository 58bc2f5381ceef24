import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CopyObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type ListObjectsV2CommandInput,
  type ListObjectsV2CommandOutput,
  type PutObjectCommandInput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startS3Emulator, type ObjectCreatedEvent, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3Order } from '../storage/object-store-conformance.js';
import { anySignature } from './emulator-fixture.js';

const BUCKET = 'lake';
const ODD_KEY = 'staging/a b+c/dt=2026-11-30/ü.parquet';

let dir: string;
let emulator: S3Emulator;
let client: S3Client;
const events: ObjectCreatedEvent[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 's3-emulator-test-'));
  emulator = await startS3Emulator({ dir, buckets: [BUCKET], onObjectCreated: (event) => events.push(event) });
  client = createS3Client({ endpoint: emulator.endpoint });
});

afterAll(async () => {
  client?.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

function put(key: string, body: Uint8Array | string, extra: Partial<PutObjectCommandInput> = {}) {
  return client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ...extra }));
}

async function read(key: string, range?: string): Promise<Buffer> {
  const response = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, Range: range }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

function copy(from: string, to: string, ifNoneMatch?: string) {
  const source = `${BUCKET}/${from.split('/').map(encodeURIComponent).join('/')}`;
  return client.send(new CopyObjectCommand({ Bucket: BUCKET, Key: to, CopySource: source, IfNoneMatch: ifNoneMatch }));
}

async function expectPreconditionFailed(write: Promise<unknown>): Promise<void> {
  await expect(write).rejects.toMatchObject({ name: 'PreconditionFailed', $metadata: { httpStatusCode: 412 } });
}

function md5(body: Uint8Array | string): string {
  return createHash('md5').update(body).digest('hex');
}

async function putAll(keys: readonly string[]): Promise<void> {
  for (let start = 0; start < keys.length; start += 50) {
    await Promise.all(keys.slice(start, start + 50).map((key) => put(key, '{}')));
  }
}

/** Every ListObjectsV2 page, following continuation tokens. */
async function listPages(input: Omit<ListObjectsV2CommandInput, 'Bucket'>): Promise<ListObjectsV2CommandOutput[]> {
  const pages: ListObjectsV2CommandOutput[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, ...input, ContinuationToken: token }));
    pages.push(page);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return pages;
}

function contentKeys(page: { Contents?: { Key?: string }[] }): string[] {
  return (page.Contents ?? []).map((object) => object.Key ?? '');
}

function prefixes(page: { CommonPrefixes?: { Prefix?: string }[] }): string[] {
  return (page.CommonPrefixes ?? []).map((prefix) => prefix.Prefix ?? '');
}

describe('the S3 emulator', () => {
  it('listens on 127.0.0.1 on the port it reports', () => {
    expect(emulator.port).toBeGreaterThan(0);
    expect(emulator.endpoint).toBe(`http://127.0.0.1:${emulator.port}`);
  });

  it('returns binary and text objects byte for byte, with their size and MD5 ETag', async () => {
    const binary = new Uint8Array([...randomBytes(70_000), ...Array.from({ length: 256 }, (_, i) => i)]);
    const text = 'id,name\n1,Zoë ✓\r\n2,"naïve, quoted"\n';
    await put('roundtrip/data.bin', binary);
    await put('roundtrip/data.csv', text, { ContentType: 'text/csv' });

    expect((await read('roundtrip/data.bin')).equals(Buffer.from(binary))).toBe(true);
    expect((await read('roundtrip/data.csv')).toString('utf8')).toBe(text);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'roundtrip/data.bin' }));
    expect(head.ContentLength).toBe(binary.length);
    expect(head.ETag).toBe(`"${md5(binary)}"`);
  });

  it('serves a closed byte range', async () => {
    await put('roundtrip/range.txt', '0123456789abcdef');
    expect((await read('roundtrip/range.txt', 'bytes=5-9')).toString()).toBe('56789');
  });

  it('lists more than 1,000 keys under a prefix across pages, in key order', async () => {
    const keys = Array.from({ length: 1_050 }, (_, i) => `many/part-${String(i).padStart(4, '0')}.json`);
    await put('many-but-not-this-prefix.json', '{}');
    await putAll(keys);

    const pages = (await listPages({ Prefix: 'many/' })).map(contentKeys);
    expect(pages.map((page) => page.length)).toEqual([1_000, 50]);
    expect(pages.flat()).toEqual(keys);
  });
});

describe('listing in S3 order', () => {
  // s3rver walks x/a/ before x/a-b and x/a.csv, which sort before it by UTF-8 bytes ('-' and
  // '.' precede '/'), and used to resume page two after x/a/0999, losing both.
  const nested = Array.from({ length: 1_000 }, (_, i) => `x/a/${String(i).padStart(4, '0')}`);
  const keys = [...nested, 'x/a-b', 'x/a.csv', 'x/b'];
  beforeAll(() => putAll(keys));

  it('returns every key across pages when keys sort before a folder walked ahead of them', async () => {
    const pages = await listPages({ Prefix: 'x/' });
    expect(pages.map((page) => page.KeyCount)).toEqual([1_000, 3]);
    expect(pages.flatMap(contentKeys)).toEqual(s3Order(keys));
  });

  it('counts common prefixes against MaxKeys and resumes after one that ends a page', async () => {
    const whole = await listPages({ Prefix: 'x/', Delimiter: '/' });
    expect(whole.map((page) => [contentKeys(page), prefixes(page), page.KeyCount])).toEqual([[['x/a-b', 'x/a.csv', 'x/b'], ['x/a/'], 4]]);
    const paged = await listPages({ Prefix: 'x/', Delimiter: '/', MaxKeys: 3 });
    expect(paged.map((page) => [contentKeys(page), prefixes(page), page.KeyCount])).toEqual([
      [['x/a-b', 'x/a.csv'], ['x/a/'], 3],
      [['x/b'], [], 1],
    ]);
    const single = await listPages({ Prefix: 'x/', Delimiter: '/', MaxKeys: 1 });
    expect(single.map((page) => [...contentKeys(page), ...prefixes(page)])).toEqual([['x/a-b'], ['x/a.csv'], ['x/a/'], ['x/b']]);
  });

  it('gives ListObjects (V1) a NextMarker that may be a common prefix, and resumes after it', async () => {
    const first = await client.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: 'x/', Delimiter: '/', MaxKeys: 3 }));
    expect([contentKeys(first), prefixes(first), first.IsTruncated, first.NextMarker]).toEqual([['x/a-b', 'x/a.csv'], ['x/a/'], true, 'x/a/']);
    const second = await client.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: 'x/', Delimiter: '/', Marker: first.NextMarker }));
    expect([contentKeys(second), prefixes(second), second.IsTruncated]).toEqual([['x/b'], [], false]);
  });

  it('starts after StartAfter in UTF-8 order, inside a folder or past it', async () => {
    const intoFolder = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'x/', StartAfter: 'x/a.csv', MaxKeys: 2 }));
    expect(contentKeys(intoFolder)).toEqual(['x/a/0000', 'x/a/0001']);
    const pastFolder = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'x/', StartAfter: 'x/a/0999' }));
    expect([contentKeys(pastFolder), pastFolder.IsTruncated]).toEqual([['x/b'], false]);
  });

  it('reports a folder holding only deeper folders as a common prefix', async () => {
    await putAll(['y/only/deeper/key', 'y/z']);
    const [page] = await listPages({ Prefix: 'y/', Delimiter: '/' });
    expect([contentKeys(page!), prefixes(page!)]).toEqual([['y/z'], ['y/only/']]);
  });
});

describe('conditional writes', () => {
  it('refuses an If-None-Match: * put onto an existing key and leaves the object unchanged', async () => {
    await put('cond/existing.txt', 'original');
    await expectPreconditionFailed(put('cond/existing.txt', 'intruder', { IfNoneMatch: '*' }));
    expect((await read('cond/existing.txt')).toString()).toBe('original');
  });

  it('creates an absent key on an If-None-Match: * put', async () => {
    await put('cond/fresh.txt', 'created', { IfNoneMatch: '*' });
    expect((await read('cond/fresh.txt')).toString()).toBe('created');
  });

  it('replaces an object whose current ETag is given in If-Match', async () => {
    const { ETag } = await put('cond/cas.txt', 'v1');
    const replaced = await put('cond/cas.txt', 'v2', { IfMatch: ETag });
    expect(replaced.ETag).toBe(`"${md5('v2')}"`);
    expect((await read('cond/cas.txt')).toString()).toBe('v2');
  });

  it('refuses an If-Match put with a stale ETag and keeps the newer object', async () => {
    const { ETag: stale } = await put('cond/stale.txt', 'v1');
    await put('cond/stale.txt', 'v2');
    await expectPreconditionFailed(put('cond/stale.txt', 'v3', { IfMatch: stale }));
    expect((await read('cond/stale.txt')).toString()).toBe('v2');
  });

  it('refuses an If-Match put onto an absent key', async () => {
    await expectPreconditionFailed(put('cond/absent.txt', 'v1', { IfMatch: `"${md5('v1')}"` }));
    await expect(read('cond/absent.txt')).rejects.toMatchObject({ name: 'NoSuchKey' });
  });

  it('answers with S3 error XML naming the failed condition', async () => {
    await put('cond/raw.txt', 'x');
    const response = await fetch(`${emulator.endpoint}/${BUCKET}/cond/raw.txt`, {
      method: 'PUT',
      headers: { 'if-none-match': '*', ...anySignature() },
      body: 'y',
    });
    expect(response.status).toBe(412);
    const body = await response.text();
    expect(body).toContain('<Code>PreconditionFailed</Code>');
    expect(body).toContain('<Message>At least one of the pre-conditions you specified did not hold</Message>');
    expect(body).toContain('<Condition>If-None-Match</Condition>');
    expect(body).toMatch(/<RequestId>[0-9A-F]+<\/RequestId>/);
  });

  it('refuses an If-None-Match: * copy onto an existing key', async () => {
    await put('copy/source.txt', 'source bytes');
    await put('copy/taken.txt', 'already here');
    await expectPreconditionFailed(copy('copy/source.txt', 'copy/taken.txt', '*'));
    expect((await read('copy/taken.txt')).toString()).toBe('already here');
  });

  it('copies the source bytes onto an absent key under If-None-Match: *', async () => {
    await put('copy/source-2.txt', 'source bytes');
    await copy('copy/source-2.txt', 'copy/new.txt', '*');
    expect((await read('copy/new.txt')).toString()).toBe('source bytes');
  });

  it('lets exactly one of 32 concurrent If-None-Match: * puts of one key win', async () => {
    const bodies = Array.from({ length: 32 }, (_, i) => `writer ${i} `.repeat(200));
    const results = await Promise.allSettled(bodies.map((body) => put('race/marker', body, { IfNoneMatch: '*' })));

    const winners = results.flatMap((result, i) => (result.status === 'fulfilled' ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ name: 'PreconditionFailed' });
    }
    expect((await read('race/marker')).toString()).toBe(bodies[winners[0]!]);
  });
});

describe('object-created events', () => {
  async function eventFor(key: string, eventName: string): Promise<ObjectCreatedEvent> {
    return vi.waitFor(() => {
      const found = events.find((event) => event.key === key && event.eventName === eventName);
      if (found === undefined) throw new Error(`no ${eventName} event for ${key} yet`);
      return found;
    });
  }

  it('reports a put with the decoded key, size and ETag', async () => {
    await put(ODD_KEY, 'parquet bytes');
    expect(await eventFor(ODD_KEY, 'ObjectCreated:Put')).toEqual({
      bucket: BUCKET,
      key: ODD_KEY,
      size: 13,
      etag: md5('parquet bytes'),
      eventName: 'ObjectCreated:Put',
      eventTime: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it('reports a copy, from and to keys with spaces, + and =, with the copied size and ETag', async () => {
    const source = 'events/src a+b=c/ü.txt';
    const target = 'published/dt=2026-11-30/a b+c/ü.parquet';
    await put(source, 'copied bytes');
    await copy(source, target);
    expect(await eventFor(target, 'ObjectCreated:Copy')).toMatchObject({
      bucket: BUCKET,
      key: target,
      size: 12,
      etag: md5('copied bytes'),
    });
  });

  it('reports nothing for a write refused with 412', async () => {
    await put('events/guarded.txt', 'first');
    await eventFor('events/guarded.txt', 'ObjectCreated:Put');
    await expectPreconditionFailed(put('events/guarded.txt', 'second', { IfNoneMatch: '*' }));
    await expectPreconditionFailed(copy('events/guarded.txt', 'events/guarded.txt', '*'));
    // Events travel in order, so once a later write's event is in, a refused one would be too.
    await put('events/after.txt', 'later');
    await eventFor('events/after.txt', 'ObjectCreated:Put');
    expect(events.filter((event) => event.key === 'events/guarded.txt')).toHaveLength(1);
  });
});

describe('emulator lifecycle', () => {
  interface Listener {
    port: number;
    close(): Promise<void>;
  }

  function listenOn(port: number): Promise<Listener> {
    return new Promise((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () =>
        resolve({
          port: (server.address() as AddressInfo).port,
          close: () => new Promise((done) => server.close(() => done())),
        }),
      );
    });
  }

  it('frees its port when stopped, and stopping twice is harmless', async () => {
    const own = await startS3Emulator({ dir: join(dir, 'lifecycle'), buckets: ['b'] });
    await own.stop();
    await own.stop();
    const probe = await listenOn(own.port);
    await probe.close();
  });

  it('rejects with a message naming the port when the port is taken', async () => {
    const blocker = await listenOn(0);
    try {
      await expect(startS3Emulator({ dir: join(dir, 'taken'), buckets: ['b'], port: blocker.port })).rejects.toThrow(
        `127.0.0.1:${blocker.port}: the port is already in use`,
      );
    } finally {
      await blocker.close();
    }
  });
});
