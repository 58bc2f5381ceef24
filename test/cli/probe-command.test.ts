import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { serveCommand } from '../../lib/cli/serve-command.js';
import { startLocalGate } from '../../lib/local/local-gate.js';
import { startS3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';

const CONTRACTS = resolve('contracts');
const NOW = '2026-12-01T05:30:00Z'; // orders dt=2026-11-30 was due at 05:00Z
const home = process.cwd();

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

/** A folder holding a `.lake` as `serve` leaves it (its bucket exists, no serve is running). */
async function projectWithLake(): Promise<string> {
  const project = mkdtempSync(join(tmpdir(), 'cg-project-'));
  mkdirSync(join(project, '.lake'));
  // serve ran before the probed days: its registry says since when the contracts were known.
  const gate = await startLocalGate({ dir: join(project, '.lake'), contractsDir: CONTRACTS, bucket: 'lake', port: 0, probeEveryMs: 0, resumeEveryMs: 0, print: () => {}, clock: () => Date.parse('2026-11-25T00:00:00Z') });
  await gate.stop();
  return project;
}

function outcomes(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').map((line) => `${JSON.parse(line).attributes.outcome} ${JSON.parse(line).attributes.partition}`);
}

/** What the probe remembered in the lake: its claims under _gate/sla/. */
async function claims(lakeDir: string): Promise<string[]> {
  const emulator = await startS3Emulator({ dir: join(lakeDir, 'buckets'), buckets: ['lake'], port: 0 });
  try {
    const keys: string[] = [];
    for await (const object of s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' }).list('_gate/sla/')) keys.push(object.key);
    return keys;
  } finally {
    await emulator.stop();
  }
}

describe('contract-gate probe on the lake serve keeps', () => {
  let project: string;
  beforeAll(async () => {
    project = await projectWithLake();
    process.chdir(project); // the defaults are relative: ./.lake
  });
  afterAll(() => process.chdir(home));

  it('--dry-run prints what it would page, and sends and records nothing', async () => {
    const { code, stdout } = await run(['probe', '--contracts', CONTRACTS, '--now', NOW, '--dry-run']);
    expect(code).toBe(1);
    expect(stdout).toContain('SLA probe of s3://lake in ./.lake (no serve running) at 2026-12-01T05:30:00Z (dry run: nothing sent, no claim written)');
    expect(stdout).toMatch(/MISSED +orders v1 dt=2026-11-30 .*\[would send sla_missed\]/);
    expect(stdout).toMatch(/would send: \[sla_missed\/\w+\] orders v1 dt=2026-11-30: /);
    expect(existsSync(join(project, '.lake', 'notifications.jsonl'))).toBe(false);
    expect(await claims(join(project, '.lake'))).toEqual([]);
  });

  it('without --dir or --endpoint probes ./.lake and pages into ./.lake/notifications.jsonl, once', async () => {
    const first = await run(['probe', '--contracts', CONTRACTS, '--now', NOW, '--format', 'json']);
    expect(first.code).toBe(1);
    expect(JSON.parse(first.stdout).partitions).toContainEqual(expect.objectContaining({ contract: 'orders', partition: 'dt=2026-11-30', status: 'missed', sent: ['sla_missed'] }));
    const file = join(project, '.lake', 'notifications.jsonl');
    expect(outcomes(file)).toContain('sla_missed dt=2026-11-30');
    const again = await run(['probe', '--contracts', CONTRACTS, '--now', NOW]);
    expect(again.code).toBe(1);
    expect(outcomes(file).filter((o) => o === 'sla_missed dt=2026-11-30')).toHaveLength(1);
    expect(await claims(join(project, '.lake'))).toContain('_gate/sla/orders/v1/dt=2026-11-30/sla_missed.json');
  });

  it('exits 2 naming the folder when there is no lake', async () => {
    const { code, stderr } = await run(['probe', '--contracts', CONTRACTS, '--dir', join(project, 'nowhere')]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${join(project, 'nowhere', 'buckets', 'lake')} does not exist: there is no local lake (bucket "lake")`);
  });
});

describe('contract-gate serve --now and probe through a running serve', () => {
  it('pins the gate clock, so old example data is judged as on its day; probe finds the serve by its directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-serve-now-'));
    const stop = new AbortController();
    const serving = serveCommand(['--port', '0', '--dir', dir, '--contracts', CONTRACTS, '--now', '2026-11-30T05:00:00Z'], { stdout: () => {}, stderr: () => {}, isTTY: false }, stop.signal);
    try {
      let failed: unknown;
      serving.catch((error: unknown) => void (failed = error));
      while (!existsSync(join(dir, 'serve.json')) && failed === undefined) await sleep(50);
      expect(failed).toBeUndefined();
      const { endpoint } = JSON.parse(readFileSync(join(dir, 'serve.json'), 'utf8')) as { endpoint: string };
      const drop = await run(['drop', '--contract', join(CONTRACTS, 'orders.v1.yaml'), join(CONTRACTS, 'examples/orders/good/dt=2026-11-29'), '--to', 's3://lake', '--endpoint', endpoint]);
      expect({ code: drop.code, stderr: drop.stderr }).toMatchObject({ code: 0 });
      const probe = await run(['probe', '--contracts', CONTRACTS, '--dir', dir, '--now', '2026-11-30T05:30:00Z', '--format', 'json']);
      expect(JSON.parse(probe.stdout).partitions).toContainEqual(expect.objectContaining({ contract: 'orders', partition: 'dt=2026-11-29', status: 'published' }));
    } finally {
      stop.abort();
      expect(await serving).toBe(0);
    }
    expect(existsSync(join(dir, 'serve.json'))).toBe(false);
  });
});
