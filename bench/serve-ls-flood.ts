/**
 * How long a drop takes on `serve` while a web page floods `/_gate/ls` (issue 28, point 9).
 * A local gate over a lake of NOISE objects; DROPS good partitions dropped one after another,
 * first quietly, then while FLOOD loops fetch listings of prefixes that each match every object
 * (a distinct prefix per request where they can, so no cache of one prefix serves them).
 * Run: npx tsx bench/serve-ls-flood.ts [noise=3000] [drops=8] [flood=32]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { dropPartition } from '../lib/gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../lib/gate/gate-layout.js';
import { startLocalGate, type LocalGate } from '../lib/local/local-gate.js';
import { createS3Client } from '../lib/storage/s3-client.js';
import { examplePartition } from '../test/fixtures/example-partitions.js';
import { median } from './measure-process.js';

const arg = (at: number, fallback: number): number => Number(process.argv[2 + at] ?? fallback);
const [NOISE, DROPS, FLOOD] = [arg(0, 3000), arg(1, 8), arg(2, 32)];
/** A drop still unfinished after this is counted as taking this long. */
const GIVE_UP_MS = 60_000;
const NOW = Date.parse('2027-01-15T05:00:00Z');
const FILES = examplePartition('good').map((f) => ({ relative: f.name, size: f.bytes.length, read: async () => f.bytes }));

async function seed(gate: LocalGate): Promise<void> {
  const client = createS3Client({ endpoint: gate.endpoint });
  const keys = Array.from({ length: NOISE }, (_, at) => `published/noise/v1/dt=2026-01-01/part-${String(at).padStart(5, '0')}.json`);
  for (let at = 0; at < keys.length; at += 32) {
    await Promise.all(keys.slice(at, at + 32).map((Key) => client.send(new PutObjectCommand({ Bucket: gate.bucket, Key, Body: '{}' }))));
  }
  client.destroy();
}

/** One drop, from its first byte to the gate removing `_READY`. */
async function timedDrop(gate: LocalGate, day: number): Promise<number> {
  const started = performance.now();
  const partition = `dt=2026-12-${String(day).padStart(2, '0')}`;
  const { marker } = await dropPartition(gate.store, DEFAULT_LAYOUT, `staging/orders/v1/${partition}/`, FILES);
  while ((await gate.store.head(marker)) !== undefined && performance.now() - started < GIVE_UP_MS) await new Promise((resolve) => setTimeout(resolve, 10));
  const took = performance.now() - started;
  process.stderr.write(`  ${partition}: ${took.toFixed(0)} ms\n`);
  return took;
}

async function drops(gate: LocalGate, firstDay: number): Promise<number[]> {
  const times: number[] = [];
  for (let at = 0; at < DROPS; at++) times.push(await timedDrop(gate, firstDay + at));
  return times;
}

/** FLOOD loops of GET /_gate/ls until `stop`; counts answers by status. */
function flood(endpoint: string, stop: AbortSignal): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const prefixes = ['', 'p', 'pu', 'pub', 'publ', 'publi', 'publis', 'publish', 'published', 'published/', 'published/n', 'published/no'];
  let sent = 0;
  const loop = async () => {
    while (!stop.aborted) {
      const prefix = prefixes[sent++ % prefixes.length]!;
      const status = await fetch(`${endpoint}/_gate/ls?prefix=${encodeURIComponent(prefix)}`, { signal: stop }).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
  };
  return Promise.all(Array.from({ length: FLOOD }, loop)).then(() => statuses);
}

const describe = (times: number[]) => `median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (${times.map((t) => t.toFixed(0)).join(', ')})`;

const dir = await mkdtemp(join(tmpdir(), 'cg-flood-'));
const gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
try {
  await seed(gate);
  await timedDrop(gate, 1); // warm-up
  const quiet = await drops(gate, 2);
  console.log(`${NOISE} objects; quiet:          ${describe(quiet)}`);
  const stop = new AbortController();
  const flooding = flood(gate.endpoint, stop.signal);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const loud = await drops(gate, 2 + DROPS);
  stop.abort();
  const statuses = await flooding;
  console.log(`${FLOOD} loops on /_gate/ls: ${describe(loud)}`);
  console.log(`listing answers by status: ${[...statuses].map(([status, n]) => `${status}: ${n}`).join(', ')}`);
  const outcomes = gate.outcomes.flatMap((o) => o.results.map((r) => r.status));
  console.log(`outcomes: ${[...new Set(outcomes)].map((s) => `${s} ${outcomes.filter((o) => o === s).length}`).join(', ')}`);
} finally {
  await gate.stop();
  await rm(dir, { recursive: true, force: true });
}
