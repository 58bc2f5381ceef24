import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';

const AFTER_DEADLINE = Date.parse('2026-12-01T05:10:00Z'); // dt=2026-11-30 was due at 05:00Z
// serve starts (and registers its contracts) the evening before; the probe expects what falls due since.
let clock = Date.parse('2026-11-30T20:00:00Z');
let gate: LocalGate;
let dir: string;
const printed: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-probe-'));
  gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => clock, probeEveryMs: 100, print: (line) => printed.push(line) });
  clock = AFTER_DEADLINE;
});
afterAll(() => gate.stop());

function outcomes(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => `${JSON.parse(line).attributes.outcome} ${JSON.parse(line).attributes.partition}`);
}

describe('the SLA probe on the local endpoint', () => {
  it('runs every interval inside serve and pages a missed partition exactly once', async () => {
    const file = join(dir, 'notifications.jsonl');
    for (let i = 0; i < 50 && outcomes(file).length === 0; i++) await sleep(100);
    await sleep(500); // several more probe runs
    expect(outcomes(file).filter((o) => o.startsWith('sla_missed'))).toEqual(['sla_missed dt=2026-11-30']);
    expect(printed.some((line) => line.startsWith('probe: orders v1 dt=2026-11-30: missed (sla_missed): never arrived'))).toBe(true);
  });

  it('runs once from the CLI through the S3 adapter, lists the due partitions and exits 1 for a miss', async () => {
    let stdout = '';
    const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false };
    const notifications = join(dir, 'cli-notifications.jsonl');
    const args = ['probe', '--endpoint', gate.endpoint, '--bucket', 'lake', '--now', '2026-12-01T05:10:00Z', '--notifications', notifications, '--format', 'json'];
    expect(await runCli(args, io)).toBe(1);
    const report = JSON.parse(stdout);
    expect(report.partitions).toContainEqual(expect.objectContaining({ contract: 'orders', partition: 'dt=2026-11-30', status: 'missed', deadline: '2026-12-01T05:00:00Z' }));
    // serve's probe already paged it: the memory is in the bucket, so the CLI does not page again.
    expect(outcomes(notifications)).toEqual([]);
  });
});
