import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from './run-captured.js';
import { dropAndSettle, keys, onlyAttempt, startOwnerLake, type OwnerLake } from '../gate/owner-action-fixture.js';

let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

const run = runCaptured;

const local = () => ['--endpoint', lake.gate.endpoint, '--notifications', join(lake.dir, 'notifications.jsonl')];

async function quarantinedUrl(partition: string): Promise<string> {
  await dropAndSettle(lake, 'bad', partition);
  return `s3://lake/${(await onlyAttempt(lake.gate.store, partition)).prefix}`;
}

describe('contract-gate release', () => {
  it('cannot run at a local endpoint without --by, and says to pass it (exit 2), publishing nothing', async () => {
    const url = await quarantinedUrl('dt=2026-12-01');
    const { code, stderr } = await run('release', url, '--reason', 'needed today', ...local());
    expect(code).toBe(2);
    expect(stderr).toContain(`pass --by <who>: there is no STS at --endpoint ${lake.gate.endpoint}`);
    expect(await keys(lake.gate.store, 'published/orders/v1/dt=2026-12-01/')).toEqual([]);
  });

  it('cannot run without --reason (exit 2)', async () => {
    const url = `s3://lake/${(await onlyAttempt(lake.gate.store, 'dt=2026-12-01')).prefix}`;
    const { code, stderr } = await run('release', url, '--by', 'me', ...local());
    expect({ code, stderr }).toEqual({ code: 2, stderr: expect.stringContaining('--reason is required') });
  });

  it('releases by override (exit 0), then finds it already released (exit 0)', async () => {
    const url = `s3://lake/${(await onlyAttempt(lake.gate.store, 'dt=2026-12-01')).prefix}`;
    const first = await run('release', url, '--reason', 'needed today', '--by', 'orders-owner', ...local(), '--format', 'json');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ verdict: 'released', exit_code: 0, manifest: 's3://lake/published/orders/v1/dt=2026-12-01/_SUCCESS', audit: { by: 'orders-owner', reason: 'needed today' } });
    const again = await run('release', url, '--reason', 'again', '--by', 'someone', ...local());
    expect(again).toMatchObject({ code: 0, stdout: expect.stringMatching(/^ALREADY RELEASED s3:\/\/lake\/quarantine\/.* by orders-owner at .* \(needed today\): nothing to do\n/) });
  });

  it('is refused (exit 1) once a newer drop of the partition was published', async () => {
    const url = await quarantinedUrl('dt=2026-12-02');
    lake.tick();
    await dropAndSettle(lake, 'good', 'dt=2026-12-02');
    const { code, stdout } = await run('release', url, '--reason', 'late', '--by', 'me', ...local());
    expect({ code, stdout }).toEqual({ code: 1, stdout: expect.stringMatching(/^REFUSED release of s3:\/\/lake\/quarantine\/.*: the partition was published since/) });
  });

  it('names the key and what it expected for a path that is no quarantine attempt folder (exit 2)', async () => {
    const { code, stderr } = await run('release', 's3://lake/quarantine/orders/v1/dt=2026-12-01/', '--reason', 'x', '--by', 'me', ...local());
    expect(code).toBe(2);
    expect(stderr).toContain('s3://lake/quarantine/orders/v1/dt=2026-12-01/ is not a quarantine attempt folder: expected s3://<bucket>/quarantine/<name>/v<major>/<partition>/<attempt>/');
  });

  it('names the missing _REPORT.json of a folder the gate did not leave (exit 2)', async () => {
    const folder = 'quarantine/orders/v1/dt=2026-12-03/20261130T050000Z-0123abcd/';
    await lake.gate.store.put(`${folder}part-0000.parquet`, 'not from the gate');
    const { code, stderr } = await run('release', `s3://lake/${folder}`, '--reason', 'x', '--by', 'me', ...local());
    expect({ code, stderr }).toEqual({ code: 2, stderr: expect.stringContaining(`s3://lake/${folder}_REPORT.json is missing`) });
  });

  it('cannot run on AWS without the topic to notify the owner through (exit 2), before asking who the caller is', async () => {
    const { code, stderr } = await run('release', 's3://lake/quarantine/orders/v1/dt=2026-12-01/20261130T050000Z-0123abcd/', '--reason', 'x');
    expect({ code, stderr }).toEqual({ code: 2, stderr: expect.stringContaining('pass --topic-arn <arn>') });
  });
});
