import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCaptured } from './run-captured.js';
import { dropAndSettle, keys, onlyAttempt, settle, startOwnerLake, type OwnerLake } from '../gate/owner-action-fixture.js';

let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

const run = runCaptured;

describe('contract-gate redrive', () => {
  it('is refused (exit 1) while staging holds a drop of the partition', async () => {
    await dropAndSettle(lake, 'bad', 'dt=2026-07-01');
    const url = `s3://lake/${(await onlyAttempt(lake.gate.store, 'dt=2026-07-01')).prefix}`;
    await lake.gate.store.put('staging/orders/v1/dt=2026-07-01/part-0009.parquet', 'mid-upload');
    const { code, stdout } = await run('redrive', url, '--endpoint', lake.gate.endpoint);
    expect({ code, stdout }).toEqual({ code: 1, stdout: expect.stringMatching(/^REFUSED redrive of .*: staging for the partition already holds 1 object/) });
    await lake.gate.store.delete('staging/orders/v1/dt=2026-07-01/part-0009.parquet');
  });

  it('puts the files back and a marker (exit 0), and the second time finds it already done (exit 0)', async () => {
    const url = `s3://lake/${(await onlyAttempt(lake.gate.store, 'dt=2026-07-01')).prefix}`;
    const first = await run('redrive', url, '--endpoint', lake.gate.endpoint, '--reason', 'contract fixed');
    expect(first).toMatchObject({ code: 0, stdout: expect.stringMatching(/^REDRIVEN s3:\/\/lake\/quarantine\/.*: 2 files back in staging, then s3:\/\/lake\/staging\/orders\/v1\/dt=2026-07-01\/_READY \(kept manifest\)/) });
    await settle(lake);
    const again = await run('redrive', url, '--endpoint', lake.gate.endpoint, '--format', 'json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ verdict: 'already_redriven', exit_code: 0, audit: { state: 'done', reason: 'contract fixed', by: expect.stringContaining('(local endpoint)') } });
    expect(await keys(lake.gate.store, 'staging/orders/v1/dt=2026-07-01/')).toEqual([]);
  });

  it('names the key and what it expected for a path that is no quarantine attempt folder (exit 2)', async () => {
    const { code, stderr } = await run('redrive', 's3://lake/published/orders/v1/dt=2026-07-01/', '--endpoint', lake.gate.endpoint);
    expect(code).toBe(2);
    expect(stderr).toContain('s3://lake/published/orders/v1/dt=2026-07-01/ is not a quarantine attempt folder: expected s3://<bucket>/quarantine/<name>/v<major>/<partition>/<attempt>/');
  });
});
