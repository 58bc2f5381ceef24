import { createHash, randomBytes } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BUCKET, rawRequest, startEmulatorFixture, walkFiles, type EmulatorFixture } from './emulator-fixture.js';

let fixture: EmulatorFixture;
const SOURCE = randomBytes(300_000);

beforeAll(async () => {
  fixture = await startEmulatorFixture();
  await fixture.put('mp/source.bin', SOURCE);
});
afterAll(() => fixture?.close());

const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest();
const status = (code: number) => ({ $metadata: { httpStatusCode: code } });
const sourceEtag = `"${md5(SOURCE).toString('hex')}"`;

/** S3's multipart ETag: the MD5 of the parts' binary MD5s, and their count. */
function multipartEtag(parts: readonly Uint8Array[]): string {
  return `"${createHash('md5').update(Buffer.concat(parts.map(md5))).digest('hex')}-${parts.length}"`;
}

async function create(key: string): Promise<string> {
  const created = await fixture.client.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
  return created.UploadId!;
}

function copyPart(key: string, uploadId: string, partNumber: number, range: string, ifMatch?: string) {
  return fixture.client.send(
    new UploadPartCopyCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId, PartNumber: partNumber, CopySource: `${BUCKET}/mp/source.bin`, CopySourceRange: range, CopySourceIfMatch: ifMatch }),
  );
}

function complete(key: string, uploadId: string, parts: CompletedPart[], extra: { IfNoneMatch?: string } = {}) {
  return fixture.client.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts }, ...extra }));
}

describe('multipart copy', () => {
  it('assembles ranged part copies into the object, with an S3 multipart ETag and a CompleteMultipartUpload event', async () => {
    const uploadId = await create('mp/assembled.bin');
    const ranges = [[0, 99_999], [100_000, 199_999], [200_000, 299_999], [0, 0]] as const;
    const parts: CompletedPart[] = [];
    for (const [at, [first, last]] of ranges.entries()) {
      const out = await copyPart('mp/assembled.bin', uploadId, at + 1, `bytes=${first}-${last}`, sourceEtag);
      expect(out.CopyPartResult?.ETag).toBe(`"${md5(SOURCE.subarray(first, last + 1)).toString('hex')}"`);
      parts.push({ PartNumber: at + 1, ETag: out.CopyPartResult?.ETag });
    }
    const expected = ranges.map(([first, last]) => SOURCE.subarray(first, last + 1));
    const done = await complete('mp/assembled.bin', uploadId, parts);
    expect(done.ETag).toBe(multipartEtag(expected));
    expect((await fixture.read('mp/assembled.bin')).equals(Buffer.concat(expected))).toBe(true);
    const event = await vi.waitFor(() => fixture.events.find((e) => e.key === 'mp/assembled.bin') ?? Promise.reject(new Error('no event yet')));
    expect(event).toMatchObject({ eventName: 'ObjectCreated:CompleteMultipartUpload', etag: done.ETag!.replaceAll('"', ''), size: 300_001 });
  });

  it('refuses a part copy whose x-amz-copy-source-if-match names another ETag', async () => {
    const uploadId = await create('mp/pinned.bin');
    await expect(copyPart('mp/pinned.bin', uploadId, 1, 'bytes=0-9', `"${'0'.repeat(32)}"`)).rejects.toMatchObject({ name: 'PreconditionFailed', ...status(412) });
    await fixture.client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'mp/pinned.bin', UploadId: uploadId }));
  });

  it('refuses a part range past the end of the source', async () => {
    const uploadId = await create('mp/past-end.bin');
    await expect(copyPart('mp/past-end.bin', uploadId, 1, `bytes=0-${SOURCE.length}`)).rejects.toMatchObject(status(400));
  });

  it('aborts an upload: its parts are gone and it can no longer complete', async () => {
    const uploadId = await create('mp/aborted.bin');
    const out = await copyPart('mp/aborted.bin', uploadId, 1, 'bytes=0-9');
    await fixture.client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'mp/aborted.bin', UploadId: uploadId }));
    await expect(complete('mp/aborted.bin', uploadId, [{ PartNumber: 1, ETag: out.CopyPartResult?.ETag }])).rejects.toMatchObject({ name: 'NoSuchUpload', ...status(404) });
    await expect(fixture.client.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: 'mp/aborted.bin', UploadId: uploadId }))).rejects.toMatchObject({ name: 'NoSuchUpload' });
    expect((await walkFiles(fixture.dir)).filter((file) => file.includes(uploadId))).toEqual([]);
  });

  it('checks the listed parts: a wrong ETag is InvalidPart, a descending list InvalidPartOrder', async () => {
    const uploadId = await create('mp/checked.bin');
    const one = await fixture.client.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'mp/checked.bin', UploadId: uploadId, PartNumber: 1, Body: 'first' }));
    const two = await fixture.client.send(new UploadPartCommand({ Bucket: BUCKET, Key: 'mp/checked.bin', UploadId: uploadId, PartNumber: 2, Body: 'second' }));
    await expect(complete('mp/checked.bin', uploadId, [{ PartNumber: 1, ETag: two.ETag }])).rejects.toMatchObject({ name: 'InvalidPart', ...status(400) });
    await expect(complete('mp/checked.bin', uploadId, [{ PartNumber: 3, ETag: two.ETag }])).rejects.toMatchObject({ name: 'InvalidPart' });
    const descending = [{ PartNumber: 2, ETag: two.ETag }, { PartNumber: 1, ETag: one.ETag }];
    await expect(complete('mp/checked.bin', uploadId, descending)).rejects.toMatchObject({ name: 'InvalidPartOrder', ...status(400) });
    await expect(fixture.read('mp/checked.bin')).rejects.toMatchObject({ name: 'NoSuchKey' });
    await complete('mp/checked.bin', uploadId, [{ PartNumber: 1, ETag: one.ETag }, { PartNumber: 2, ETag: two.ETag }]);
    expect((await fixture.read('mp/checked.bin')).toString()).toBe('firstsecond');
  });

  it('refuses a completion with If-None-Match: * onto an existing key', async () => {
    const uploadId = await create('mp/source.bin');
    const out = await copyPart('mp/source.bin', uploadId, 1, 'bytes=0-9');
    await expect(complete('mp/source.bin', uploadId, [{ PartNumber: 1, ETag: out.CopyPartResult?.ETag }], { IfNoneMatch: '*' })).rejects.toMatchObject(status(412));
    expect((await fixture.read('mp/source.bin')).equals(SOURCE)).toBe(true);
  });

  it('answers NoSuchUpload for an unknown upload, another key\'s, or an ID naming a path, and writes nothing', async () => {
    const uploadId = await create('mp/owned.bin');
    const upload = (key: string, id: string) => fixture.client.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId: id, PartNumber: 1, Body: 'x' }));
    await expect(upload('mp/owned.bin', 'f'.repeat(32))).rejects.toMatchObject({ name: 'NoSuchUpload', ...status(404) });
    await expect(upload('mp/other.bin', uploadId)).rejects.toMatchObject({ name: 'NoSuchUpload' });
    const before = await walkFiles(fixture.base);
    const escape = await rawRequest(fixture.emulator.endpoint, 'PUT', `/${BUCKET}/mp/owned.bin?uploadId=..%2F..%2F..%2Fescape&partNumber=1`, 'x');
    expect(escape.status).toBe(404);
    const part = await rawRequest(fixture.emulator.endpoint, 'PUT', `/${BUCKET}/mp/owned.bin?uploadId=${uploadId}&partNumber=..%2F..%2Fescape`, 'x');
    expect(part.status).toBe(400);
    expect(await walkFiles(fixture.base)).toEqual(before);
  });
});
