import { mkdtempSync, rmSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { anySignature } from './emulator-fixture.js';

// The reviewer's attacks on `serve` (issue 28, point 5), as real HTTP to a real local gate: a web
// page on another origin posting a form or a no-cors multipart body, and a page on a rebound
// name reading the lake. Headers are set by hand, as the browser would send them.

const NOW = Date.parse('2026-11-30T05:00:00Z');
const EVIL = 'http://evil.example';
const STAGED = 'staging/orders/v1/dt=2026-11-29/';
let dir: string;
let gate: LocalGate;
let port: number;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-guard-'));
  gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
  port = Number(new URL(gate.endpoint).port);
  await gate.store.put('published/orders/v1/dt=2026-11-01/part-0000.parquet', 'secret rows');
});
afterAll(async () => {
  await gate?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Answer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

function send(method: string, path: string, headers: Record<string, string>, body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, 'content-length': String(Buffer.byteLength(body)), ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

/** What an HTML form with a file input (or fetch with a FormData body) posts: S3's browser-upload shape. */
function formUpload(key: string, content: string): { type: string; body: string } {
  const boundary = '----formboundary7MA4YWxkTrZu0gW';
  const part = (name: string, value: string, file = '') => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file}\r\n\r\n${value}\r\n`;
  return { type: `multipart/form-data; boundary=${boundary}`, body: `${part('key', key)}${part('file', content, '; filename="x"')}--${boundary}--\r\n` };
}

async function staged(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of gate.store.list('staging/')) keys.push(object.key);
  return keys;
}

async function expectNothingWritten(): Promise<void> {
  expect(await staged()).toEqual([]);
  await gate.settled();
  expect(gate.outcomes).toEqual([]);
}

describe('serve takes writes only from S3 clients and its own origin', () => {
  it('refuses a browser form post from another origin with a 403 saying why, and writes neither the data nor _READY', async () => {
    for (const key of [`${STAGED}part-0000.parquet`, `${STAGED}_READY`]) {
      const form = formUpload(key, 'rows');
      const answer = await send('POST', '/lake', { origin: EVIL, 'content-type': form.type }, form.body);
      expect(answer.status).toBe(403);
      expect(answer.headers['content-type']).toBe('application/xml');
      expect(answer.text).toContain('<Code>AccessDenied</Code>');
      expect(answer.text).toContain(`a browser form post from another origin (Origin: ${EVIL}) is refused`);
    }
    await expectNothingWritten();
  });

  it('refuses a no-cors multipart POST from another origin even when its URL carries a presigned query', async () => {
    const form = formUpload(`${STAGED}_READY`, '');
    const presigned = '/lake?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=x%2F20261130%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261130T050000Z&X-Amz-Expires=900&X-Amz-SignedHeaders=host&X-Amz-Signature=00';
    for (const origin of [EVIL, 'null']) {
      expect((await send('POST', presigned, { origin, 'content-type': form.type }, form.body)).status).toBe(403);
    }
    await expectNothingWritten();
  });

  it.each(['application/x-www-form-urlencoded', 'text/plain'])('refuses a %s post from another origin', async (type) => {
    const answer = await send('POST', `/lake/${STAGED}_READY?uploads`, { origin: EVIL, 'content-type': type }, 'key=x');
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('a browser form post from another origin');
    await expectNothingWritten();
  });

  it('refuses an unsigned PUT or DELETE and says how to sign', async () => {
    const put = await send('PUT', `/lake/${STAGED}_READY`, {}, '');
    expect(put.status).toBe(403);
    expect(put.text).toContain('an unsigned PUT is refused');
    expect((await send('DELETE', '/lake/published/orders/v1/dt=2026-11-01/part-0000.parquet', {})).status).toBe(403);
    expect(await gate.store.head('published/orders/v1/dt=2026-11-01/part-0000.parquet')).toBeDefined();
    await expectNothingWritten();
  });

  it('takes signed requests, as the SDK sends them', async () => {
    await gate.store.put('scratch/signed.txt', 'by the SDK');
    expect(new TextDecoder().decode(await gate.store.read('scratch/signed.txt', 0, 10))).toBe('by the SDK');
    expect((await send('PUT', '/lake/scratch/raw.txt', anySignature(), 'raw')).status).toBe(200);
    await gate.store.delete('scratch/signed.txt');
    await gate.store.delete('scratch/raw.txt');
  });

  it('takes a form post from its own origin', async () => {
    const form = formUpload('scratch/own-origin.txt', 'from the page');
    const answer = await send('POST', '/lake', { origin: `http://127.0.0.1:${port}`, 'content-type': form.type }, form.body);
    expect(answer.status).toBe(204);
    expect(await gate.store.head('scratch/own-origin.txt')).toBeDefined();
    await gate.store.delete('scratch/own-origin.txt');
  });
});

describe('serve answers only to its own names', () => {
  it.each(['rebound.example', 'evil.example:80', '127.0.0.2'])('answers Host %s with 421 and no listing, pages included', async (name) => {
    const host = name.includes(':') ? name : `${name}:${port}`;
    for (const path of ['/_gate/ls?prefix=', '/_gate/', '/lake?list-type=2', '/lake/published/orders/v1/dt=2026-11-01/part-0000.parquet']) {
      const answer = await send('GET', path, { host });
      expect(answer.status, path).toBe(421);
      expect(answer.text, path).toContain('<Code>MisdirectedRequest</Code>');
      expect(answer.text, path).not.toContain('dt=2026-11-01');
      expect(answer.text, path).not.toContain('secret rows');
    }
  });

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]'])('serves its pages and objects to %s', async (name) => {
    for (const path of ['/_gate/', '/_gate/ls?prefix=published/', '/lake/published/orders/v1/dt=2026-11-01/part-0000.parquet']) {
      const answer = await send('GET', path, { host: `${name}:${port}` });
      expect(answer.status, path).toBe(200);
    }
  });
});

describe('serve sends no CORS headers', () => {
  it('refuses preflights and adds no Access-Control-* header, even with a bucket CORS configuration', async () => {
    const client = createS3Client({ endpoint: gate.endpoint });
    await client.send(new PutBucketCorsCommand({ Bucket: 'lake', CORSConfiguration: { CORSRules: [{ AllowedOrigins: ['*'], AllowedMethods: ['GET', 'PUT', 'POST'], AllowedHeaders: ['*'] }] } }));
    client.destroy();
    const preflight = await send('OPTIONS', `/lake/${STAGED}_READY`, { origin: EVIL, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization' });
    expect(preflight.status).toBe(403);
    expect(preflight.text).toContain('<Code>CORSResponse</Code>');
    const answers = [
      preflight,
      await send('GET', '/lake/published/orders/v1/dt=2026-11-01/part-0000.parquet', { origin: EVIL }),
      await send('GET', '/lake?list-type=2', { origin: EVIL }),
      await send('GET', '/_gate/', { origin: EVIL }),
      await send('GET', '/_gate/ls?prefix=', { origin: EVIL }),
      await send('GET', '/lake/absent', { origin: EVIL }),
    ];
    for (const answer of answers) {
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      // No other site may embed what it can read (s3rver's error answers drop the header; they hold nothing).
      if (answer.status === 200) expect(answer.headers['cross-origin-resource-policy']).toBe('same-origin');
    }
  });
});
