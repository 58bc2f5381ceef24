import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { serveCommand } from '../../lib/cli/serve-command.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { examplePartition } from '../fixtures/example-partitions.js';

// v2 is v1 renumbered: the same example files pass (or fail) under both.
const V1 = readFileSync('contracts/orders.v1.yaml', 'utf8');
const V2 = V1.replace('version: 1.2.0', 'version: 2.0.0');
const lake = mkdtempSync(join(tmpdir(), 'cg-serve-linked-'));
const contracts = mkdtempSync(join(tmpdir(), 'cg-linked-contracts-'));
const stop = new AbortController();
let serving: Promise<number>;
let endpoint = '';

beforeAll(async () => {
  writeFileSync(join(contracts, 'orders.v1.yaml'), V1);
  writeFileSync(join(contracts, 'orders.v2.yaml'), V2);
  const quiet: CliIo = { stdout: () => {}, stderr: () => {}, isTTY: false };
  serving = serveCommand(['--port', '0', '--dir', lake, '--contracts', contracts, '--now', '2026-11-30T05:00:00Z'], quiet, stop.signal);
  endpoint = await servedEndpoint();
});
afterAll(async () => {
  stop.abort();
  await serving;
});

/** serve writes where it listens into <dir>/serve.json once it is up. */
async function servedEndpoint(): Promise<string> {
  for (;;) {
    const text = await readFile(join(lake, 'serve.json'), 'utf8').catch(() => undefined);
    if (text) return (JSON.parse(text) as { endpoint: string }).endpoint;
    await sleep(50);
  }
}

function producerDir(major: number, partition: string, kind: 'good' | 'bad'): string {
  const dir = join(mkdtempSync(join(tmpdir(), `cg-producer-v${major}-`)), partition);
  mkdirSync(dir, { recursive: true });
  for (const file of examplePartition(kind)) writeFileSync(join(dir, file.name), file.bytes);
  return dir;
}

async function drop(partition: string, v1: 'good' | 'bad', v2: 'good' | 'bad') {
  let stdout = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false };
  const args = ['drop', '--contract', join(contracts, 'orders.v1.yaml'), '--contract', join(contracts, 'orders.v2.yaml'), producerDir(1, partition, v1), producerDir(2, partition, v2), '--to', 's3://lake', '--endpoint', endpoint, '--format', 'json'];
  return { code: await runCli(args, io), verdicts: (JSON.parse(stdout) as { linked: { verdict: string; dataset: string }[] }).linked };
}

/** What any S3 client sees on the endpoint serve listens on. */
async function lakeKeys(prefix: string): Promise<string[]> {
  const store = s3ObjectStore({ client: createS3Client({ endpoint }), bucket: 'lake' });
  const found: string[] = [];
  for await (const object of store.list(prefix)) found.push(object.key);
  return found.sort();
}

function notices(partition: string): { subject: string; attributes: Record<string, string> }[] {
  return readFileSync(join(lake, 'notifications.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line)).filter((n) => n.attributes.partition === partition);
}

describe('serve: a linked v1/v2 drop (drop --contract v1 --contract v2)', () => {
  it('publishes neither when v2 fails, and sends one notice naming both verdicts', async () => {
    const { code, verdicts } = await drop('dt=2026-11-29', 'good', 'bad');
    expect(code).toBe(1);
    expect(verdicts.map((v) => `${v.dataset} ${v.verdict}`)).toEqual(['orders v1 quarantined', 'orders v2 quarantined']);
    expect(await lakeKeys('published/')).toEqual([]);
    expect(await lakeKeys('staging/')).toEqual([]);
    const sent = notices('dt=2026-11-29');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe('[contract-gate] orders v1+v2 dt=2026-11-29 linked: v1 QUARANTINED, v2 QUARANTINED');
  });

  it('publishes both, each with its _SUCCESS, when both pass', async () => {
    const { code, verdicts } = await drop('dt=2026-11-30', 'good', 'good');
    expect(code).toBe(0);
    expect(verdicts.map((v) => `${v.dataset} ${v.verdict}`)).toEqual(['orders v1 published', 'orders v2 published']);
    for (const major of [1, 2]) expect((await lakeKeys(`published/orders/v${major}/dt=2026-11-30/`)).map((k) => k.split('/').pop())).toEqual(['_SUCCESS', 'part-0000.parquet', 'part-0001.parquet']);
    expect(notices('dt=2026-11-30').map((n) => [n.attributes.version, n.attributes.outcome])).toEqual([['v1+v2', 'published']]);
  });
});
