import { randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';

/**
 * What `serve`'s endpoint answers, before s3rver or the pages see a request. It listens on
 * 127.0.0.1 and takes any credentials, so any web page the user opens can reach it; these rules
 * make it answer only S3 clients and its own pages:
 * - `Host` must name this endpoint, or a page on another name that resolves here (DNS rebinding)
 *   would be same-origin with it and read everything;
 * - a write (anything but GET and HEAD) must carry an S3 SigV4 signature or come from this very
 *   origin. A browser can send a form or no-cors POST anywhere, but an `Authorization` header
 *   only after a CORS preflight, which is refused. A request from another `Origin` is refused
 *   even when signed: a presigned query is only a URL, which a form can carry;
 * - no CORS: preflights are refused and no response carries an Access-Control-* header.
 */
export interface Refusal {
  readonly status: number;
  /** S3's error code. */
  readonly code: string;
  /** Why, and what to do instead. */
  readonly message: string;
}

export interface GuardedRequest {
  readonly method?: string | undefined;
  readonly url?: string | undefined;
  readonly headers: IncomingHttpHeaders;
}

/** Content types a browser sends cross-origin without a preflight: what an HTML form posts. */
const FORM_TYPES = /^\s*(multipart\/form-data|application\/x-www-form-urlencoded|text\/plain)\b/i;
const SIGV4 = 'AWS4-HMAC-SHA256';

/** Why `request` to the endpoint listening on `port` is refused, or undefined when it may go on. */
export function refusal(request: GuardedRequest, port: number): Refusal | undefined {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !servedHosts(port).includes(host)) return foreignHost(request.headers.host, port);
  if (request.method === 'OPTIONS') {
    return { status: 403, code: 'CORSResponse', message: `this endpoint answers no cross-origin requests (no CORS): use an S3 client, or open http://${host}/_gate/ itself` };
  }
  if (request.method === 'GET' || request.method === 'HEAD') return undefined;
  const origin = request.headers.origin;
  if (origin !== undefined) return sameOrigin(origin, host) ? undefined : crossOriginWrite(request, origin, host);
  if (isSigned(request)) return undefined;
  return {
    status: 403,
    code: 'AccessDenied',
    message: `an unsigned ${request.method ?? ''} is refused: the local endpoint takes writes from S3 clients, which sign their requests (SigV4; any access key works here, e.g. AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local)`,
  };
}

/** The `Host` values of this endpoint: 127.0.0.1 (where it listens), and localhost and [::1], which a browser on this machine may use. */
export function servedHosts(port: number): string[] {
  const names = ['127.0.0.1', 'localhost', '[::1]'];
  return [...names.map((name) => `${name}:${port}`), ...(port === 80 ? names : [])];
}

function foreignHost(host: string | undefined, port: number): Refusal {
  const named = host === undefined ? 'no Host header' : `Host "${host}"`;
  return {
    status: 421,
    code: 'MisdirectedRequest',
    message: `${named} is not this endpoint: it answers only as ${servedHosts(port).slice(0, 3).join(', ')} (another name that leads here is how a web page would read the lake); use http://127.0.0.1:${port}`,
  };
}

function crossOriginWrite(request: GuardedRequest, origin: string, host: string): Refusal {
  const form = FORM_TYPES.test(request.headers['content-type'] ?? '') ? 'a browser form post' : `a ${request.method ?? ''}`;
  return {
    status: 403,
    code: 'AccessDenied',
    message: `${form} from another origin (Origin: ${origin}) is refused: the local endpoint takes writes only from S3 clients and from its own origin (http://${host}), so a web page cannot drop files into the lake`,
  };
}

function sameOrigin(origin: string, host: string): boolean {
  try {
    return new URL(origin).origin === new URL(`http://${host}`).origin;
  } catch {
    return false; // "null" (a sandboxed frame, a file:// page) or no URL at all
  }
}

function isSigned(request: GuardedRequest): boolean {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) return authorization.trimStart().toUpperCase().startsWith(`${SIGV4} `);
  const query = new URL(request.url ?? '/', 'http://endpoint.invalid').searchParams;
  return query.get('X-Amz-Algorithm') === SIGV4;
}

/** Answers with S3's error document, and closes the connection rather than read a body it refused. */
export function respondRefused(response: ServerResponse, refused: Refusal): void {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  const body = '<?xml version="1.0" encoding="UTF-8"?>\n'
    + `<Error><Code>${refused.code}</Code><Message>${escapeXml(refused.message)}</Message><RequestId>${requestId}</RequestId></Error>`;
  response.writeHead(refused.status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    'x-amz-request-id': requestId,
    'cache-control': 'no-store',
    connection: 'close',
  });
  response.end(body);
}

/**
 * Drops every Access-Control-* header s3rver would set: it answers CORS from a bucket's CORS
 * configuration, which a signed client could store. Node sends what setHeader was given, so
 * this is the one place all of s3rver's headers pass.
 */
export function withoutCorsHeaders(response: ServerResponse): void {
  const setHeader = response.setHeader.bind(response);
  response.setHeader = (name: string, value: number | string | readonly string[]) => (/^access-control-/i.test(name) ? response : setHeader(name, value));
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}
