import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CopyObjectCommand, GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { describeObjectStoreConformance, listKeys } from './object-store-conformance.js';

/** A fresh bucket per conformance test: emptying a shared one would trust the list under test. */
const TEST_BUCKETS = Array.from({ length: 48 }, (_, i) => `conformance-${i}`);
let nextBucket = 0;
let dir: string;
let emulator: S3Emulator;
let client: S3Client;

// One emulator for the file: starting its child process per test would dominate the run.
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 's3-object-store-'));
  emulator = await startS3Emulator({ dir, buckets: [...TEST_BUCKETS, 'big-copies'] });
  client = createS3Client({ endpoint: emulator.endpoint });
});

afterAll(async () => {
  client?.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

describeObjectStoreConformance('the S3 object store over the emulator', async () => {
  const bucket = TEST_BUCKETS[nextBucket++];
  if (bucket === undefined) throw new Error(`more conformance tests than the ${TEST_BUCKETS.length} test buckets`);
  return { store: s3ObjectStore({ client, bucket }), teardown: async () => undefined };
});

interface Sent { name: string; input: Record<string, unknown> }

/** A client that records what it is asked and answers from a script, for what the emulator cannot show. */
function scriptedClient(answer: (sent: Sent) => unknown): { client: S3Client; sent: Sent[] } {
  const sent: Sent[] = [];
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const call = { name: command.constructor.name, input: command.input };
    sent.push(call);
    const result = answer(call);
    if (result instanceof Error) throw result;
    return result;
  };
  return { client: { send } as unknown as S3Client, sent };
}

function s3Error(name: string, status: number, message = name): S3ServiceException {
  return new S3ServiceException({ name, message, $fault: status >= 500 ? 'server' : 'client', $metadata: { httpStatusCode: status } });
}

describe('the S3 object store requests', () => {
  it('names itself s3://bucket', () => {
    expect(s3ObjectStore({ client: scriptedClient(() => ({})).client, bucket: 'lake' }).location).toBe('s3://lake');
  });

  it('reads with an explicit first-last byte range and never a suffix range', async () => {
    const { client: fake, sent } = scriptedClient(() => ({ Body: { transformToByteArray: async () => new Uint8Array([1, 2]) } }));
    const store = s3ObjectStore({ client: fake, bucket: 'lake' });
    await store.read('a.parquet', 0, 8);
    await store.read('a.parquet', 1_000, 1_002);
    expect(sent).toEqual([
      { name: GetObjectCommand.name, input: { Bucket: 'lake', Key: 'a.parquet', Range: 'bytes=0-7' } },
      { name: GetObjectCommand.name, input: { Bucket: 'lake', Key: 'a.parquet', Range: 'bytes=1000-1001' } },
    ]);
  });

  it('answers a zero-length read with no bytes and no request, and rejects a backwards range', async () => {
    const { client: fake, sent } = scriptedClient(() => ({}));
    const store = s3ObjectStore({ client: fake, bucket: 'lake' });
    expect(await store.read('a.parquet', 5, 5)).toEqual(new Uint8Array(0));
    await expect(store.read('a.parquet', 5, 4)).rejects.toMatchObject({ code: 'bad_arguments' });
    expect(sent).toEqual([]);
  });

  it('sends the conditions and content type of a put', async () => {
    const { client: fake, sent } = scriptedClient(() => ({ ETag: '"e"' }));
    const store = s3ObjectStore({ client: fake, bucket: 'lake' });
    await store.put('k', 'body', { ifNoneMatch: '*', contentType: 'text/csv' });
    await store.put('k', 'body', { ifMatch: '"old"' });
    expect(sent.map((call) => call.name)).toEqual([PutObjectCommand.name, PutObjectCommand.name]);
    expect(sent[0]?.input).toMatchObject({ Key: 'k', IfNoneMatch: '*', ContentType: 'text/csv' });
    expect(sent[1]?.input).toMatchObject({ Key: 'k', IfMatch: '"old"' });
  });

  it('percent-encodes each segment of a copy source and returns the new ETag', async () => {
    const { client: fake, sent } = scriptedClient(() => ({ CopyObjectResult: { ETag: '"new"' } }));
    const store = s3ObjectStore({ client: fake, bucket: 'lake' });
    const result = await store.copy('in/a b+c=d%/ü 😀.csv', 'out/x.csv', { ifNoneMatch: '*' });
    expect(result).toEqual({ etag: '"new"' });
    expect(sent[0]).toMatchObject({
      name: CopyObjectCommand.name,
      input: { Bucket: 'lake', Key: 'out/x.csv', CopySource: 'lake/in/a%20b%2Bc%3Dd%25/%C3%BC%20%F0%9F%98%80.csv', IfNoneMatch: '*' },
    });
  });

  it('follows continuation tokens until the last page', async () => {
    const pages: Record<string, unknown> = {
      first: { Contents: [{ Key: 'p/1', Size: 1, ETag: '"a"' }], IsTruncated: true, NextContinuationToken: 't1' },
      t1: { Contents: [{ Key: 'p/2', Size: 2, ETag: '"b"' }], IsTruncated: false },
    };
    const { client: fake, sent } = scriptedClient(({ input }) => pages[(input.ContinuationToken as string | undefined) ?? 'first']);
    expect(await listKeys(s3ObjectStore({ client: fake, bucket: 'lake' }), 'p/')).toEqual(['p/1', 'p/2']);
    expect(sent.map(({ name, input }) => [name, input.Prefix, input.ContinuationToken])).toEqual([
      [ListObjectsV2Command.name, 'p/', undefined],
      [ListObjectsV2Command.name, 'p/', 't1'],
    ]);
  });

  it('treats a 409 conditional-request conflict as a failed precondition to re-read and retry', async () => {
    const { client: fake } = scriptedClient(() => s3Error('ConditionalRequestConflict', 409));
    await expect(s3ObjectStore({ client: fake, bucket: 'lake' }).put('k', 'x', { ifMatch: '"e"' })).rejects.toMatchObject({ code: 'precondition_failed' });
  });

  it('reports any other failure as storage_failed naming the operation and the object', async () => {
    const { client: fake } = scriptedClient(() => s3Error('InternalError', 500, 'We encountered an internal error.'));
    const failure = s3ObjectStore({ client: fake, bucket: 'lake' }).put('dir/k.csv', 'x');
    await expect(failure).rejects.toMatchObject({ code: 'storage_failed', message: 'put s3://lake/dir/k.csv: We encountered an internal error.' });
    await expect(failure).rejects.toHaveProperty('cause.name', 'InternalError');
  });

  it('reports a missing bucket as storage_failed rather than an absent object', async () => {
    const { client: fake } = scriptedClient(() => s3Error('NoSuchBucket', 404));
    await expect(s3ObjectStore({ client: fake, bucket: 'nope' }).read('k', 0, 1)).rejects.toMatchObject({ code: 'storage_failed' });
  });
});

describe('the S3 object store copying a big object', () => {
  const bucket = 'big-copies';
  const parted = () => s3ObjectStore({ client, bucket, multipartCopyAbove: 1024, copyPartSize: 1000 });

  it('copies in parts above the threshold, byte for byte, pinned to the listed version', async () => {
    const store = parted();
    const body = new Uint8Array(3_500).map((_, i) => (i * 31) % 251);
    const { etag } = await store.put('big/source.bin', body);
    const copied = await store.copy('big/source.bin', 'big/target.bin', { sourceIfMatch: etag, sourceSize: body.length });
    expect(copied.etag).toMatch(/-4"$/);
    expect(await store.read('big/target.bin', 0, body.length)).toEqual(body);
    expect((await store.head('big/target.bin'))?.etag).toBe(copied.etag);
  });

  it('refuses a part copy of a replaced source and leaves no target behind', async () => {
    const store = parted();
    const { etag } = await store.put('big/changing.bin', new Uint8Array(2_500).fill(1));
    await store.put('big/changing.bin', new Uint8Array(2_500).fill(2));
    await expect(store.copy('big/changing.bin', 'big/never.bin', { sourceIfMatch: etag, sourceSize: 2_500 })).rejects.toMatchObject({ code: 'precondition_failed' });
    expect(await store.head('big/never.bin')).toBeUndefined();
  });
});
