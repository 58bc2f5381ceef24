import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HeadObjectCommand, S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { MIN_PART_SIZE } from '../../lib/storage/s3-multipart-upload.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';

const MiB = 1024 ** 2;
const BUCKET = 'uploads';
let dir: string;
let emulator: S3Emulator;
let client: S3Client;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 's3-multipart-upload-'));
  emulator = await startS3Emulator({ dir, buckets: [BUCKET] });
  client = createS3Client({ endpoint: emulator.endpoint });
});

afterAll(async () => {
  client?.destroy();
  await emulator?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Sent { name: string; input: Record<string, unknown> }

/** The real client, recording each command and the size of its body, so a test sees the parts. */
function recording(real: S3Client): { client: S3Client; sent: Sent[]; bodies: (name: string) => number[] } {
  const sent: Sent[] = [];
  const send = (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    sent.push({ name: command.constructor.name, input: command.input });
    return real.send(command as never);
  };
  const bodies = (name: string) => sent.filter((call) => call.name === name).map((call) => (call.input.Body as Uint8Array).length);
  return { client: { send } as unknown as S3Client, sent, bodies };
}

/** Random chunks of the given sizes, and all their bytes, to compare with what is read back. */
function chunksOf(sizes: readonly number[]): { chunks: Uint8Array[]; whole: Buffer } {
  const chunks = sizes.map((size) => new Uint8Array(randomBytes(size)));
  return { chunks, whole: Buffer.concat(chunks) };
}

async function* yielding(chunks: readonly Uint8Array[], failAfter = Infinity): AsyncGenerator<Uint8Array> {
  for (const [index, chunk] of chunks.entries()) {
    if (index === failAfter) throw new Error('the writer broke');
    yield chunk;
  }
}

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest('hex');

/**
 * Open uploads, from the emulator's folder of them (made by the first CreateMultipartUpload):
 * it answers ListMultipartUploads with NotImplemented.
 */
async function openUploads(): Promise<string[]> {
  return readdir(join(dir, BUCKET, '._S3rver_uploads'));
}

describe('the S3 object store uploading chunks', () => {
  it('uploads 3 chunks of 6 MiB and a 1 KiB tail as a 4-part upload that reads back byte for byte', async () => {
    const recorded = recording(client);
    const store = s3ObjectStore({ client: recorded.client, bucket: BUCKET });
    const { chunks, whole } = chunksOf([6 * MiB, 6 * MiB, 6 * MiB, 1024]);
    const uploaded = await store.upload!('big/rewritten.parquet', yielding(chunks), { contentType: 'application/vnd.apache.parquet' });
    expect(uploaded).toEqual({ etag: expect.stringMatching(/^"[0-9a-f]{32}-4"$/), size: whole.length });
    expect(recorded.bodies('UploadPartCommand')).toEqual([6 * MiB, 6 * MiB, 6 * MiB, 1024]);
    const listed = [];
    for await (const info of store.list('big/')) listed.push(info);
    expect(listed).toMatchObject([{ key: 'big/rewritten.parquet', size: whole.length, etag: uploaded.etag }]);
    expect(md5(await store.read('big/rewritten.parquet', 0, whole.length))).toBe(md5(whole));
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: 'big/rewritten.parquet' }));
    expect(head.ContentType).toBe('application/vnd.apache.parquet');
  });

  it('re-buffers chunks smaller than 5 MiB into parts of 5 MiB', async () => {
    const recorded = recording(client);
    const store = s3ObjectStore({ client: recorded.client, bucket: BUCKET });
    const { chunks, whole } = chunksOf(Array.from({ length: 21 }, (_, i) => (i < 20 ? MiB : 3)));
    const uploaded = await store.upload!('small-chunks.bin', yielding(chunks));
    expect(recorded.bodies('UploadPartCommand')).toEqual([5 * MiB, 5 * MiB, 5 * MiB, 5 * MiB, 3]);
    expect(uploaded).toEqual({ etag: expect.stringMatching(/-5"$/), size: whole.length });
    expect(md5(await store.read('small-chunks.bin', 0, whole.length))).toBe(md5(whole));
  });

  it('puts a body that makes one part in a single PutObject with a plain MD5 ETag', async () => {
    for (const sizes of [[6 * MiB], [1024, 1024, 7], [], [0, 0]]) {
      const recorded = recording(client);
      const store = s3ObjectStore({ client: recorded.client, bucket: BUCKET });
      const { chunks, whole } = chunksOf(sizes);
      const uploaded = await store.upload!('whole.bin', yielding(chunks));
      expect(recorded.sent.map((call) => call.name)).toEqual(['PutObjectCommand']);
      expect(uploaded).toEqual({ etag: `"${md5(whole)}"`, size: whole.length });
      expect(await store.head('whole.bin')).toMatchObject({ size: whole.length, etag: uploaded.etag });
    }
  });

  it('leaves no object and no open upload when the chunks fail half-way', async () => {
    const recorded = recording(client);
    const store = s3ObjectStore({ client: recorded.client, bucket: BUCKET });
    const { chunks } = chunksOf([6 * MiB, 6 * MiB, 6 * MiB]);
    const failed = store.upload!('broken.parquet', yielding(chunks, 2));
    await expect(failed).rejects.toMatchObject({ name: 'GateError', code: 'storage_failed', message: expect.stringContaining('the writer broke') });
    expect(recorded.sent.map((call) => call.name)).toContain('AbortMultipartUploadCommand');
    expect(await store.head('broken.parquet')).toBeUndefined();
    expect(await openUploads()).toEqual([]);
  });
});

type Answer = (sent: Sent) => unknown;

/** A client that answers from a script, for failures and pacing the emulator cannot show. */
function scriptedClient(answer: Answer): { client: S3Client; sent: Sent[] } {
  const sent: Sent[] = [];
  const send = async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const call = { name: command.constructor.name, input: command.input };
    sent.push(call);
    const result = await answer(call);
    if (result instanceof Error) throw result;
    return result;
  };
  return { client: { send } as unknown as S3Client, sent };
}

const uploadAnswers: Answer = ({ name, input }) => {
  if (name === 'CreateMultipartUploadCommand') return { UploadId: 'upload-1' };
  if (name === 'UploadPartCommand') return { ETag: `"part-${String(input.PartNumber)}"` };
  if (name === 'CompleteMultipartUploadCommand') return { ETag: '"whole-n"' };
  return {};
};

describe('the S3 object store uploading chunks, against a scripted S3', () => {
  it('aborts the upload when a part fails and reports storage_failed naming the object', async () => {
    const failing = scriptedClient((call) => {
      if (call.name === 'UploadPartCommand' && call.input.PartNumber === 2) {
        return new S3ServiceException({ name: 'InternalError', message: 'We encountered an internal error', $fault: 'server', $metadata: { httpStatusCode: 500 } });
      }
      return uploadAnswers(call);
    });
    const store = s3ObjectStore({ client: failing.client, bucket: 'lake' });
    const part = new Uint8Array(MIN_PART_SIZE);
    const failed = store.upload!('a.parquet', yielding([part, part, part]));
    await expect(failed).rejects.toMatchObject({ code: 'storage_failed', message: expect.stringContaining('upload s3://lake/a.parquet') });
    expect(failing.sent.map((call) => call.name)).toEqual(['CreateMultipartUploadCommand', 'UploadPartCommand', 'UploadPartCommand', 'AbortMultipartUploadCommand']);
    expect(failing.sent.at(-1)?.input).toEqual({ Bucket: 'lake', Key: 'a.parquet', UploadId: 'upload-1' });
  });

  it('holds at most the part in flight and the one being built, however far the chunks could run ahead', async () => {
    let pulled = 0;
    let completed = 0;
    let mostHeld = 0;
    // Each part answers a turn of the event loop later, so a greedy uploader would pull ahead.
    const paced = scriptedClient(async (call) => {
      if (call.name === 'UploadPartCommand') await new Promise(setImmediate).then(() => completed++);
      return uploadAnswers(call);
    });
    async function* counted(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 8; i++) {
        pulled++;
        mostHeld = Math.max(mostHeld, pulled - completed);
        yield new Uint8Array(MIN_PART_SIZE);
      }
    }
    const uploaded = await s3ObjectStore({ client: paced.client, bucket: 'lake' }).upload!('paced.bin', counted());
    expect(uploaded).toEqual({ etag: '"whole-n"', size: 8 * MIN_PART_SIZE });
    expect(mostHeld).toBe(2);
    const completion = paced.sent.find((call) => call.name === 'CompleteMultipartUploadCommand');
    expect(completion?.input.MultipartUpload).toEqual({ Parts: Array.from({ length: 8 }, (_, i) => ({ PartNumber: i + 1, ETag: `"part-${i + 1}"` })) });
  });

  it('refuses a body that needs more than 10,000 parts, and aborts it', async () => {
    const scripted = scriptedClient(uploadAnswers);
    // One buffer for every chunk: a chunk of a whole part is sent as it is, never copied.
    const part = new Uint8Array(MIN_PART_SIZE);
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) yield part;
    }
    const failed = s3ObjectStore({ client: scripted.client, bucket: 'lake' }).upload!('huge.bin', endless());
    await expect(failed).rejects.toMatchObject({ code: 'bad_arguments', message: expect.stringContaining('more than 10000 parts') });
    expect(scripted.sent.filter((call) => call.name === 'UploadPartCommand')).toHaveLength(10_000);
    expect(scripted.sent.at(-1)?.name).toBe('AbortMultipartUploadCommand');
  });

  it('rejects an upload part size below S3 minimum of 5 MiB', () => {
    const { client: fake } = scriptedClient(uploadAnswers);
    expect(() => s3ObjectStore({ client: fake, bucket: 'lake', uploadPartSize: MIN_PART_SIZE - 1 })).toThrow(expect.objectContaining({ code: 'bad_arguments' }));
  });
});
