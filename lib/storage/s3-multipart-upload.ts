import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  UploadPartCommand,
  type CompletedPart,
  type S3Client,
} from '@aws-sdk/client-s3';
import { GateError } from '../errors.js';
import { MAX_PARTS } from './s3-multipart-copy.js';

/** S3 takes parts of at least 5 MiB, all but the last. */
export const MIN_PART_SIZE = 5 * 1024 ** 2;

export interface ChunkUpload {
  readonly client: S3Client;
  readonly bucket: string;
  readonly key: string;
  /** Already passed through pullChunks: whatever they throw is a GateError. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** The least bytes in every part but the last; at least MIN_PART_SIZE. */
  readonly partSize: number;
  readonly contentType?: string;
}

type Parts = AsyncIterator<Uint8Array, undefined>;

/**
 * Uploads chunks: a body that makes one part is one PutObject, a bigger one a multipart upload
 * whose parts are re-cut from the chunks to S3's minimum. One part is sent while the next is
 * built, never more, so memory stays at two parts whatever the body's size. A failed upload is
 * aborted so no parts are left billed; the error is rethrown for the adapter to map.
 */
export async function uploadInParts(upload: ChunkUpload): Promise<{ etag: string; size: number }> {
  const parts: Parts = partsOf(upload.chunks, upload.partSize);
  try {
    const first = await parts.next();
    const body = first.done ? new Uint8Array(0) : first.value;
    const second = first.done ? first : await parts.next();
    if (second.done) return await putWhole(upload, body);
    return await multipart(upload, parts, body, second.value);
  } finally {
    // Ends the caller's chunks too when S3 failed first, so their producer can clean up.
    await parts.return?.(undefined);
  }
}

async function putWhole(upload: ChunkUpload, body: Uint8Array): Promise<{ etag: string; size: number }> {
  const { client, bucket, key, contentType } = upload;
  const out = await client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
  return { etag: required(out.ETag, upload, 'PutObject', 'ETag'), size: body.length };
}

async function multipart(upload: ChunkUpload, parts: Parts, first: Uint8Array, second: Uint8Array): Promise<{ etag: string; size: number }> {
  const { client, bucket, key } = upload;
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key, ContentType: upload.contentType }));
  const uploadId = required(created.UploadId, upload, 'CreateMultipartUpload', 'UploadId');
  const sent: CompletedPart[] = [];
  let inFlight = quietly(sendPart(upload, uploadId, 1, first, sent));
  let size = first.length;
  try {
    for (let ready: Uint8Array | undefined = second, number = 2; ready; number++) {
      await inFlight;
      if (number > MAX_PARTS) throw tooManyParts(upload);
      inFlight = quietly(sendPart(upload, uploadId, number, ready, sent));
      size += ready.length;
      ready = (await parts.next()).value; // built while `ready` is in flight
    }
    await inFlight;
    const done = await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: sent } }));
    return { etag: required(done.ETag, upload, 'CompleteMultipartUpload', 'ETag'), size };
  } catch (error) {
    // A part still being sent would otherwise land after the abort and leave the upload open.
    await inFlight.catch(() => undefined);
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
    throw error;
  }
}

async function sendPart(upload: ChunkUpload, uploadId: string, number: number, body: Uint8Array, sent: CompletedPart[]): Promise<void> {
  const { client, bucket, key } = upload;
  const out = await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId: uploadId, PartNumber: number, Body: body }));
  sent.push({ PartNumber: number, ETag: required(out.ETag, upload, 'UploadPart', 'ETag') });
}

/**
 * Re-cuts chunks into parts of at least `size` bytes, so any chunk sizes make valid parts: a
 * chunk that big (or its rest) passes whole, smaller ones are copied into a part of exactly
 * `size`. Only the last part may be shorter. Empty chunks make no part.
 */
export async function* partsOf(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array, undefined> {
  let part: Uint8Array | undefined;
  let filled = 0;
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; ) {
      if (filled === 0 && chunk.length - at >= size) {
        yield at === 0 ? chunk : chunk.subarray(at);
        break;
      }
      part ??= new Uint8Array(size);
      const taken = Math.min(size - filled, chunk.length - at);
      part.set(chunk.subarray(at, at + taken), filled);
      filled += taken;
      at += taken;
      if (filled < size) continue;
      yield part;
      part = undefined;
      filled = 0;
    }
  }
  if (part && filled > 0) yield part.subarray(0, filled);
  return undefined;
}

/** Marks a promise handled now, so a part failing while the next is built is no unhandled rejection; awaiting it still throws. */
function quietly<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}

function required(value: string | undefined, upload: ChunkUpload, op: string, field: string): string {
  if (value) return value;
  throw new GateError('storage_failed', `upload s3://${upload.bucket}/${upload.key}: ${op} returned no ${field}`);
}

function tooManyParts(upload: ChunkUpload): GateError {
  const where = `s3://${upload.bucket}/${upload.key}`;
  return new GateError('bad_arguments', `upload ${where}: the body needs more than ${MAX_PARTS} parts of ${upload.partSize} bytes; raise uploadPartSize`, {
    context: { location: where, partSize: upload.partSize },
  });
}
