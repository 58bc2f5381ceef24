import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';

const CONTRACT = 'contracts/orders.v1.yaml';
const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
const BAD = 'contracts/examples/orders/bad/dt=2026-11-29';

let gate: LocalGate;
let bare: S3Emulator;
beforeAll(async () => {
  // Pinned to the morning after the example data, so its freshness holds however old the checkout is.
  gate = await startLocalGate({ dir: mkdtempSync(join(tmpdir(), 'cg-wait-')), contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => Date.parse('2026-11-30T05:00:00Z'), print: () => {} });
  bare = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-wait-bare-')), buckets: ['lake'], port: 0 });
  // A bucket whose registry knows the contract but where no gate runs: drops there get no decision.
  expect((await run(['publish', CONTRACT, '--to', 's3://lake', '--endpoint', bare.endpoint])).code).toBe(0);
});
afterAll(async () => {
  await gate.stop();
  await bare.stop();
});

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

/** A copy of an example partition under another partition's name, so each test has its own partition. */
function renamed(source: string, partition: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'cg-producer-')), partition);
  cpSync(source, dir, { recursive: true });
  return dir;
}

describe('contract-gate drop waits for the verdict by default', () => {
  it('exits 1 for a partition the gate quarantines, with the top violations and where the report is', async () => {
    const { code, stdout, stderr } = await run(['drop', '--contract', CONTRACT, renamed(BAD, 'dt=2026-11-28'), '--to', 's3://lake', '--endpoint', gate.endpoint]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^QUARANTINED orders 1\.2\.0 dt=2026-11-28, attempt \S+: failed: 7 violations/);
    expect(stdout).toContain('  ✗ enum status: 1 row of status has a value not in [placed, paid, cancelled]');
    expect(stdout).toContain('… and 2 more violations in the report');
    expect(stdout).toMatch(/ {2}report: s3:\/\/lake\/quarantine\/orders\/v1\/dt=2026-11-28\/[^/]+\/_REPORT\.json\n$/);
    // Progress goes to stderr, so a job's stdout is the verdict alone.
    expect(stderr).toContain('dropped 2 files into s3://lake/staging/orders/v1/dt=2026-11-28/');
    const report = await gate.store.head(stdout.match(/report: s3:\/\/lake\/(\S+)/)![1]!);
    expect(report).toBeDefined();
  });

  it('exits 0 for a partition the gate publishes and names its _SUCCESS', async () => {
    const { code, stdout } = await run(['drop', '--contract', CONTRACT, GOOD, '--to', 's3://lake', '--endpoint', gate.endpoint]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^PUBLISHED orders 1\.2\.0 dt=2026-11-29, attempt \S+: passed: no violations\n/);
    expect(stdout).toContain('  published: s3://lake/published/orders/v1/dt=2026-11-29/_SUCCESS\n');
    expect(await gate.store.head('published/orders/v1/dt=2026-11-29/_SUCCESS')).toBeDefined();
  });

  it('prints one JSON object with --format json, also for an explicit staging prefix', async () => {
    const { code, stdout } = await run(['drop', '--contract', CONTRACT, BAD, '--to', 's3://lake/staging/orders/v1/dt=2026-11-27/', '--endpoint', gate.endpoint, '--format', 'json']);
    expect(code).toBe(1);
    const verdict = JSON.parse(stdout);
    expect(verdict).toMatchObject({ verdict: 'quarantined', outcome: 'quarantine', exit_code: 1, partition: 'dt=2026-11-27', manifest: null, marker: 's3://lake/staging/orders/v1/dt=2026-11-27/_READY' });
    expect(verdict.violations.map((v: { rule: string }) => v.rule)).toContain('grain');
    expect(verdict.report).toBe(`s3://lake/quarantine/orders/v1/dt=2026-11-27/${verdict.attempt}/_REPORT.json`);
    expect(verdict.decision).toMatch(/^s3:\/\/lake\/_gate\/decisions\/orders\/v1\/dt=2026-11-27\/\w+\.json$/);
  });

  it('exits 3 when no gate decides within --timeout', async () => {
    const { code, stdout } = await run(['drop', '--contract', CONTRACT, GOOD, '--to', 's3://lake', '--endpoint', bare.endpoint, '--timeout', '1s', '--format', 'json']);
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ verdict: 'no_decision', outcome: null, exit_code: 3, marker: 's3://lake/staging/orders/v1/dt=2026-11-29/_READY' });
  });

  it('exits 2 before uploading anything for a bad --timeout or a prefix the gate does not watch', async () => {
    const timeout = await run(['drop', '--contract', CONTRACT, GOOD, '--to', 's3://lake', '--endpoint', bare.endpoint, '--timeout', 'soon']);
    expect(timeout.code).toBe(2);
    expect(timeout.stderr).toContain('--timeout must be a positive duration such as 90s, 15m, 1h or a number of seconds; found "soon"');
    const prefix = await run(['drop', '--contract', CONTRACT, GOOD, '--to', 's3://lake/incoming/', '--endpoint', bare.endpoint]);
    expect(prefix.code).toBe(2);
    expect(prefix.stderr).toContain('pass --no-wait to upload there anyway');
    const keys: string[] = [];
    const store = (await import('../../lib/storage/s3-object-store.js')).s3ObjectStore({ client: (await import('../../lib/storage/s3-client.js')).createS3Client({ endpoint: bare.endpoint }), bucket: 'lake' });
    for await (const object of store.list('incoming/')) keys.push(object.key);
    expect(keys).toEqual([]);
  });
});
