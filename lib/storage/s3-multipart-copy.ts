import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  UploadPartCopyCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import { GateError } from '../errors.js';

/** S3 copies at most 5 GB in one CopyObject; above that, only UploadPartCopy can. */
export const SINGLE_COPY_LIMIT = 5 * 1024 ** 3;
/** S3 allows at most 10,000 parts per upload. */
export const MAX_PARTS = 10_000;

export interface PartCopy {
  readonly client: S3Client;
  readonly bucket: string;
  readonly sourceKey: string;
  readonly targetKey: string;
  readonly size: number;
  /** The bytes per part; grown if the object would otherwise need more than 10,000 parts. */
  readonly partSize: number;
  /** Every part is copied from this version only, so the parts cannot come from two versions. */
  readonly sourceIfMatch?: string;
  readonly encodedSource: string;
}

/**
 * Copies an object in parts. Each part carries the source's ETag condition, so a source replaced
 * half-way fails the copy (precondition) instead of joining two versions; a failed copy aborts
 * its upload so no parts are left billed.
 */
export async function copyInParts(copy: PartCopy): Promise<{ etag: string }> {
  const { client, bucket, targetKey } = copy;
  const created = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: targetKey }));
  const uploadId = created.UploadId;
  if (!uploadId) throw new GateError('storage_failed', `copy to s3://${bucket}/${targetKey}: CreateMultipartUpload returned no UploadId`);
  try {
    const parts = [];
    for (const [index, range] of partRanges(copy.size, copy.partSize).entries()) {
      const out = await client.send(
        new UploadPartCopyCommand({
          Bucket: bucket,
          Key: targetKey,
          UploadId: uploadId,
          PartNumber: index + 1,
          CopySource: copy.encodedSource,
          CopySourceRange: `bytes=${range.start}-${range.end - 1}`,
          CopySourceIfMatch: copy.sourceIfMatch,
        }),
      );
      parts.push({ PartNumber: index + 1, ETag: out.CopyPartResult?.ETag });
    }
    const done = await client.send(new CompleteMultipartUploadCommand({ Bucket: bucket, Key: targetKey, UploadId: uploadId, MultipartUpload: { Parts: parts } }));
    if (!done.ETag) throw new GateError('storage_failed', `copy to s3://${bucket}/${targetKey}: CompleteMultipartUpload returned no ETag`);
    return { etag: done.ETag };
  } catch (error) {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: targetKey, UploadId: uploadId })).catch(() => undefined);
    throw error;
  }
}

/** Byte ranges [start, end) of equal parts (the last one shorter), at most MAX_PARTS of them. */
export function partRanges(size: number, partSize: number): { start: number; end: number }[] {
  const part = Math.max(partSize, Math.ceil(size / MAX_PARTS));
  const ranges = [];
  for (let start = 0; start < size; start += part) ranges.push({ start, end: Math.min(size, start + part) });
  return ranges;
}
