import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type PutObjectCommandInput, type S3Client } from '@aws-sdk/client-s3';
import { startS3Emulator, type ObjectCreatedEvent, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';

export const BUCKET = 'lake';

/** One emulator over a fresh folder: `base` holds only `dir`, so anything written beside it is an escape. */
export interface EmulatorFixture {
  readonly base: string;
  readonly dir: string;
  readonly emulator: S3Emulator;
  readonly client: S3Client;
  readonly events: ObjectCreatedEvent[];
  put(key: string, body: Uint8Array | string, extra?: Partial<PutObjectCommandInput>): Promise<{ ETag?: string }>;
  read(key: string, extra?: { Range?: string; IfMatch?: string }): Promise<Buffer>;
  listAll(prefix?: string, delimiter?: string): Promise<{ keys: string[]; prefixes: string[] }>;
  close(): Promise<void>;
}

export async function startEmulatorFixture(): Promise<EmulatorFixture> {
  const base = await mkdtemp(join(tmpdir(), 'cg-emulator-'));
  const dir = join(base, 'root', 'emulator');
  const events: ObjectCreatedEvent[] = [];
  const emulator = await startS3Emulator({ dir, buckets: [BUCKET], onObjectCreated: (event) => events.push(event) });
  const client = createS3Client({ endpoint: emulator.endpoint });
  return {
    base,
    dir,
    emulator,
    client,
    events,
    put: (key, body, extra = {}) => client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ...extra })),
    async read(key, extra = {}) {
      const response = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, ...extra }));
      return Buffer.from(await response.Body!.transformToByteArray());
    },
    listAll: (prefix = '', delimiter) => listAll(client, prefix, delimiter),
    async close() {
      client.destroy();
      await emulator.stop();
      await rm(base, { recursive: true, force: true });
    },
  };
}

/** Every page of ListObjectsV2, three entries a page so page ends fall everywhere. */
async function listAll(client: S3Client, prefix: string, delimiter: string | undefined): Promise<{ keys: string[]; prefixes: string[] }> {
  const keys: string[] = [];
  const prefixes: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix, Delimiter: delimiter, MaxKeys: 3, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
    prefixes.push(...(page.CommonPrefixes ?? []).map((common) => common.Prefix ?? ''));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return { keys, prefixes };
}

/** Every file below `dir`, as absolute paths. */
export async function walkFiles(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await walkFiles(path)));
    else files.push(path);
  }
  return files;
}

/**
 * The headers of a SigV4-signed request with a made-up signature: the endpoint takes any
 * credentials, so this is what any local S3 client (or a process posing as one) can send.
 */
export function anySignature(): Record<string, string> {
  const date = new Date().toISOString().replace(/[-:]|\.\d+/g, '');
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=local/${date.slice(0, 8)}/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature=${'0'.repeat(64)}`,
    'x-amz-date': date,
    'x-amz-content-sha256': 'UNSIGNED-PAYLOAD',
  };
}

/**
 * One signed request with `path` sent exactly as given. fetch() parses URLs the WHATWG way, which
 * resolves `..` and even `%2e%2e` before sending, so it cannot send what an attacker would.
 */
export function rawRequest(endpoint: string, method: string, path: string, body = ''): Promise<{ status: number; text: string }> {
  const { hostname, port } = new URL(endpoint);
  return new Promise((resolve, reject) => {
    const sent = request({ hostname, port, method, path, headers: { 'content-length': Buffer.byteLength(body), ...anySignature() } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}
