import { randomBytes } from 'node:crypto';
import type { KoaContext } from './s3rver-types.js';
import type { Condition } from './write-preconditions.js';

const MESSAGE = 'At least one of the pre-conditions you specified did not hold';

/**
 * Answers 412 with S3's own error document, so the AWS SDK raises `PreconditionFailed` exactly
 * as it would against AWS. Written here rather than thrown because s3rver's error renderer has
 * no RequestId element.
 */
export function respondPreconditionFailed(ctx: KoaContext, condition: Condition): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  ctx.status = 412;
  ctx.type = 'application/xml';
  ctx.set('x-amz-request-id', requestId);
  ctx.body = preconditionFailedXml(condition, requestId);
}

function preconditionFailedXml(condition: Condition, requestId: string): string {
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<Error><Code>PreconditionFailed</Code>' +
    `<Message>${MESSAGE}</Message>` +
    `<Condition>${condition}</Condition>` +
    `<RequestId>${requestId}</RequestId></Error>`
  );
}

/** S3's 304: no body, but the ETag and Last-Modified the client's cache is checked against. */
export function respondNotModified(ctx: KoaContext, current: { etag: string; lastModified?: string }): void {
  ctx.status = 304;
  ctx.set('ETag', current.etag);
  if (current.lastModified !== undefined) ctx.set('Last-Modified', current.lastModified);
}
