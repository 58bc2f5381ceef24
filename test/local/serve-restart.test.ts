import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startLocalGate } from '../../lib/local/local-gate.js';
import { startS3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { Crash, crashingStore } from '../fixtures/crashing-store.js';
import { dropExample, gateDeps, NOW } from '../fixtures/gate-fixture.js';

const PREFIX = 'staging/orders/v1/dt=2026-11-29/';
const SUCCESS = 'published/orders/v1/dt=2026-11-29/_SUCCESS';
const children: ChildProcess[] = [];
afterEach(() => children.splice(0).forEach((child) => child.kill('SIGKILL')));

function noticesIn(dir: string): { attributes: { outcome: string; partition: string } }[] {
  const text = (() => {
    try {
      return readFileSync(join(dir, 'notifications.jsonl'), 'utf8');
    } catch {
      return '';
    }
  })();
  return text.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** The bucket as the gate left it, read with a plain emulator on the same directory. */
async function withBucket<T>(dir: string, look: (store: ObjectStore) => Promise<T>): Promise<T> {
  const emulator = await startS3Emulator({ dir: join(dir, 'buckets'), buckets: ['lake'] });
  try {
    return await look(s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' }));
  } finally {
    await emulator.stop();
  }
}

describe('a local gate started on a directory where an earlier one was interrupted', () => {
  it('finishes a drop whose marker no handler ever saw, without a new marker', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-resume-'));
    await withBucket(dir, (store) => dropExample(store, 'good', PREFIX));
    const gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0 });
    await gate.settled();
    expect(await gate.store.head(SUCCESS)).toBeDefined();
    expect(await gate.store.head(`${PREFIX}_READY`)).toBeUndefined();
    await gate.stop();
    expect(noticesIn(dir).map((n) => n.attributes.outcome)).toEqual(['published']);
  });

  it('finishes a carry-out that died half-way: every file published, the owner told once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-resume-'));
    await withBucket(dir, async (store) => {
      await dropExample(store, 'good', PREFIX);
      // An earlier serve dies before its 6th write: lease, decision, copies and _SUCCESS are in, the staged files and no notice yet.
      const dying = { ...gateDeps(crashingStore(store, 6)), lease: { holder: 'serve-1-earlier', ttlMs: 15 * 60_000 } };
      await expect(processMarker(dying, `${PREFIX}_READY`)).rejects.toBeInstanceOf(Crash);
    });
    const gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0 });
    await gate.settled();
    const keys: string[] = [];
    for await (const object of gate.store.list('')) keys.push(object.key);
    await gate.stop();
    expect(keys.filter((key) => !key.startsWith('_gate/') && !key.startsWith('_contracts/'))).toEqual([
      'published/orders/v1/dt=2026-11-29/_SUCCESS',
      'published/orders/v1/dt=2026-11-29/part-0000.parquet',
      'published/orders/v1/dt=2026-11-29/part-0001.parquet',
    ]);
    expect(noticesIn(dir).map((n) => n.attributes.outcome)).toEqual(['published']);
  });
});

/** `contract-gate serve` as a producer's machine runs it, resolving with its endpoint once it listens. */
function serve(dir: string): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', 'serve', '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const endpoint = /local gate on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (endpoint) resolve({ child, endpoint });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening: ${out}`)));
  });
}

describe('contract-gate serve killed with SIGKILL right after a drop, then started again', () => {
  it('finishes the drop wherever the kill landed: one decision carried out, nothing left in staging, one notice', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-kill-'));
    const first = await serve(dir);
    const store = s3ObjectStore({ client: createS3Client({ endpoint: first.endpoint }), bucket: 'lake' });
    await dropExample(store, 'good', PREFIX);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const second = await serve(dir);
    const again = s3ObjectStore({ client: createS3Client({ endpoint: second.endpoint }), bucket: 'lake' });
    // No timing assumption: poll until the gate is done, however loaded the machine.
    for (let tries = 0; (await again.head(`${PREFIX}_READY`)) !== undefined; tries++) {
      if (tries > 600) throw new Error('the restarted gate never finished the drop');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // The gate's own clock runs here, so the example data may be fresh or stale: either verdict will do, once.
    const decisions: string[] = [];
    for await (const object of again.list('_gate/decisions/orders/v1/dt=2026-11-29/')) decisions.push(object.key);
    expect(decisions).toHaveLength(1);
    const decision = JSON.parse(Buffer.from(await again.read(decisions[0]!, 0, (await again.head(decisions[0]!))!.size)).toString());
    const where = decision.outcome === 'publish' ? SUCCESS : `quarantine/orders/v1/dt=2026-11-29/${decision.attempt}/_REPORT.json`;
    expect(await again.head(where)).toBeDefined();
    const staged: string[] = [];
    for await (const object of again.list(PREFIX)) staged.push(object.key);
    expect(staged).toEqual([]);
    const told = decision.outcome === 'publish' ? 'published' : 'quarantined';
    expect(noticesIn(dir).map((n) => [n.attributes.partition, n.attributes.outcome])).toEqual([['dt=2026-11-29', told]]);
  }, 120_000);
});
