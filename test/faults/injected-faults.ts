import { Readable } from 'node:stream';

/** Marks every error the harness makes, so "failed because of a fault we injected" is checkable. */
const INJECTED = Symbol('injected fault');

/** Request ids of injected S3 error responses start with this; the SDK copies them to $metadata. */
export const INJECTED_REQUEST_ID = 'INJECTED-FAULT';

/** The handler died (a Lambda killed or crashed); it makes no call after this. */
export class Crash extends Error {
  override readonly name = 'Crash';
  readonly [INJECTED] = true;
}

/** What Node's HTTP client throws when the peer resets the connection; the SDK retries it. */
export function connectionReset(): Error {
  return Object.assign(new Error('socket hang up (injected after the request was applied)'), { code: 'ECONNRESET', [INJECTED]: true });
}

export type InjectedStatus = { readonly status: 503; readonly code: 'SlowDown' } | { readonly status: 500; readonly code: 'InternalError' } | { readonly status: 409; readonly code: 'ConditionalRequestConflict' };

/** An S3 error response as the service sends it; the SDK's deserializer turns it into its exception. */
export function errorResponse(fault: InjectedStatus, method: string): { statusCode: number; headers: Record<string, string>; body: Readable } {
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${fault.code}</Code><Message>injected</Message><RequestId>${INJECTED_REQUEST_ID}</RequestId></Error>`;
  // HEAD responses carry no body on S3, so the SDK names those errors by status alone.
  const body = method === 'HEAD' ? '' : xml;
  return {
    statusCode: fault.status,
    headers: { 'content-type': 'application/xml', 'x-amz-request-id': INJECTED_REQUEST_ID, 'content-length': String(Buffer.byteLength(body)) },
    body: Readable.from(body === '' ? [] : [Buffer.from(body)]),
  };
}

/** True when the error, or anything in its cause chain, is a fault the harness injected. */
export function isInjected(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 10) return false;
  if ((error as { [INJECTED]?: boolean })[INJECTED] === true) return true;
  if ((error as { $metadata?: { requestId?: string } }).$metadata?.requestId === INJECTED_REQUEST_ID) return true;
  return isInjected((error as { cause?: unknown }).cause, depth + 1);
}
