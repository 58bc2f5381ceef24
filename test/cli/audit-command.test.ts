import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { redriveAttempt } from '../../lib/gate/redrive.js';
import { runCaptured } from './run-captured.js';
import { dropAndSettle, keys, onlyAttempt, readJson, settle, startOwnerLake, type OwnerLake } from '../gate/owner-action-fixture.js';

let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

const OWNER = { by: 'orders-oncall@example.com', reason: 'contract fixed' };

/** A partition with a redrive's three records (copying, marking, done), as the real writer leaves them. */
async function redriven(partition: string): Promise<string[]> {
  lake.tick();
  await dropAndSettle(lake, 'bad', partition);
  const ref = await onlyAttempt(lake.gate.store, partition);
  expect(await redriveAttempt({ store: lake.gate.store, layout: DEFAULT_LAYOUT, clock: () => lake.tick() }, ref, OWNER)).toMatchObject({ status: 'redriven' });
  await settle(lake);
  return keys(lake.gate.store, `_audit/orders/v1/${partition}/`);
}

const verify = (...args: string[]) => runCaptured('audit', 'verify', 's3://lake', '--endpoint', lake.gate.endpoint, ...args);

describe('contract-gate audit verify', () => {
  it('finds the chains of owners\' actions intact as the writers left them (exit 0)', async () => {
    expect(await redriven('dt=2026-08-01')).toHaveLength(3);
    const { code, stdout } = await verify();
    expect({ code, stdout }).toEqual({ code: 0, stdout: 'INTACT 1 chain, 3 records\n' });
  });

  it('reports a record rewritten by a plain PUT at the record after it, naming both keys and the hash expected (exit 1)', async () => {
    const [, second, third] = await redriven('dt=2026-08-02');
    const record = await readJson<Record<string, unknown>>(lake.gate.store, second!);
    await lake.gate.store.put(second!, `${JSON.stringify({ ...record, by: 'someone-else' }, null, 2)}\n`);
    const { code, stdout } = await verify('--partition', 'dt=2026-08-02');
    expect(code).toBe(1);
    expect(stdout).toContain(`BROKEN s3://lake/${third} names prev_sha256 `);
    expect(stdout).toContain(`${second} was rewritten after this record was written`);
    expect(stdout).toMatch(/BROKEN 1 of 1 chain, 3 records \(orders\/v1\/dt=2026-08-02\/\)\n$/);
  });

  it('reports a deleted record as missing, with the key it was at (exit 1)', async () => {
    const [first] = await redriven('dt=2026-08-03');
    await lake.gate.store.delete(first!);
    const { code, stdout } = await verify('--dataset', 'orders', '--partition', 'dt=2026-08-03', '--format', 'json');
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({
      verdict: 'broken',
      chains: [{ address: { dataset: 'orders', major: 1, partition: 'dt=2026-08-03' }, records: 2, breaks: [{ key: first, problem: 'is missing: the record was deleted', expected: expect.stringContaining('record 1 of the chain') }] }],
    });
  });

  it('reports a record copied in from another partition as disagreeing with its key (exit 1)', async () => {
    const [, , third] = await redriven('dt=2026-08-04');
    const foreign = await readJson<Record<string, unknown>>(lake.gate.store, (await keys(lake.gate.store, '_audit/orders/v1/dt=2026-08-01/'))[0]!);
    const fourth = third!.replace('00000003.json', '00000004.json');
    await lake.gate.store.put(fourth, JSON.stringify(foreign));
    const { code, stdout } = await verify('--partition', 'dt=2026-08-04');
    expect(code).toBe(1);
    expect(stdout).toContain(`BROKEN s3://lake/${fourth} disagrees with its key: it names partition "dt=2026-08-01" where its key says "dt=2026-08-04", seq 1 where its key says 4`);
  });

  it('refuses to run without the verify action or a lake (exit 2)', async () => {
    expect(await runCaptured('audit', 'check', 's3://lake')).toMatchObject({ code: 2, stderr: expect.stringContaining('"check" is no audit action') });
    expect(await runCaptured('audit', 'verify')).toMatchObject({ code: 2, stderr: expect.stringContaining('name one lake') });
  });
});
