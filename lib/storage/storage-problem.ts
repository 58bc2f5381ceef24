import { connect } from 'node:net';

/**
 * What stopped a request to S3 (or an S3-compatible endpoint) before or at the server, told from
 * the SDK's error, wherever in a chain of causes it sits. The kinds are ordered by what a person
 * has to fix first: an endpoint that does not answer makes every region, credential or IAM
 * question moot, so it is asked about before them.
 */
export type StorageProblemKind = 'unreachable' | 'no_region' | 'no_credentials' | 'access_denied' | 'no_bucket';

export interface StorageProblem {
  readonly kind: StorageProblemKind;
  /** For `unreachable`: the `host:port` (or host) that did not answer, as the socket error names it. */
  readonly address?: string;
  /** The system or SDK error's own words, e.g. `connect ECONNREFUSED 127.0.0.1:4566`. */
  readonly detail: string;
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ETIMEDOUT']);
const DENIED_NAMES = new Set(['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'ExpiredToken', 'InvalidToken', 'AllAccessDisabled']);

/** The first storage problem in the error or its causes; undefined for any other failure. */
export function storageProblem(error: unknown): StorageProblem | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 8; depth++) {
    const found = problemOf(current);
    if (found) return found;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function problemOf(error: unknown): StorageProblem | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, name, message, address, port, hostname, $metadata } = error as Record<string, unknown>;
  const detail = typeof message === 'string' ? message : String(error);
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) {
    const host = typeof address === 'string' ? address : typeof hostname === 'string' ? hostname : undefined;
    const bracketed = host?.includes(':') ? `[${host}]` : host;
    return { kind: 'unreachable', ...(bracketed === undefined ? {} : { address: typeof port === 'number' ? `${bracketed}:${port}` : bracketed }), detail };
  }
  // The SDK throws a plain Error with these words when no region is configured anywhere.
  if (detail === 'Region is missing') return { kind: 'no_region', detail };
  if (name === 'CredentialsProviderError' || detail.startsWith('Could not load credentials')) return { kind: 'no_credentials', detail };
  const status = ($metadata as { httpStatusCode?: unknown } | undefined)?.httpStatusCode;
  if (typeof name === 'string' && DENIED_NAMES.has(name)) return { kind: 'access_denied', detail: `${name}: ${detail}` };
  if (name === 'NoSuchBucket') return { kind: 'no_bucket', detail };
  // Only SDK errors carry $metadata: a 403 there is S3 refusing the caller, whatever its name.
  if (status === 403) return { kind: 'access_denied', detail: `${typeof name === 'string' ? name : 'HTTP 403'}: ${detail}` };
  return undefined;
}

/**
 * The endpoint the SDK sends S3 requests to when no endpoint is passed in code: the service's
 * own variable, else the general one, unless configured endpoints are switched off.
 */
export function environmentEndpoint(env: NodeJS.ProcessEnv = process.env): { readonly url: string; readonly variable: string } | undefined {
  if (env.AWS_IGNORE_CONFIGURED_ENDPOINT_URLS === 'true') return undefined;
  for (const variable of ['AWS_ENDPOINT_URL_S3', 'AWS_ENDPOINT_URL']) {
    const url = env[variable];
    if (url) return { url, variable };
  }
  return undefined;
}

/** Whether the URL names this machine: then the likely server is a `contract-gate serve`. */
export function isLoopback(url: string): boolean {
  const host = hostOf(url)?.hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || (host?.startsWith('127.') ?? false);
}

/**
 * Whether anything accepts a TCP connection at the URL's host and port, within `timeoutMs`.
 * Asked only to word an error: the SDK resolves region and credentials before it connects, so
 * a dead endpoint would otherwise be hidden behind advice about them.
 */
export async function endpointAnswers(url: string, timeoutMs = 2_000): Promise<boolean> {
  const parsed = hostOf(url);
  if (!parsed) return true;
  const port = Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  return await new Promise<boolean>((resolve) => {
    const socket = connect({ host: parsed.hostname.replace(/^\[|\]$/g, ''), port });
    const settle = (answers: boolean) => {
      socket.destroy();
      resolve(answers);
    };
    socket.setTimeout(timeoutMs, () => settle(false));
    socket.once('connect', () => settle(true));
    socket.once('error', () => settle(false));
  });
}

function hostOf(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}
