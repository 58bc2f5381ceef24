import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readChain } from '../../lib/gate/audit-chain.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { readRecorded } from '../../lib/gate/recorded-decision.js';
import { dropAndSettle, keys, notices, readJson, startOwnerLake, type OwnerLake } from './owner-action-fixture.js';

let lake: OwnerLake;

beforeAll(async () => {
  lake = await startOwnerLake();
});
afterAll(() => lake.stop());

describe("a record of the gate's own that is not where it says it belongs", () => {
  it('is a decision never carried out: the partition it was copied into publishes its own drops, and the alert addresses are paged once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      await dropAndSettle(lake, 'bad', 'dt=2026-12-21');
      const [original] = await keys(lake.gate.store, '_gate/decisions/orders/v1/dt=2026-12-21/');
      const quarantined = await keys(lake.gate.store, 'quarantine/orders/v1/dt=2026-12-21/');
      // Copied into another partition and made to look unfinished, which a handler of that partition would finish.
      const { completed_at: _done, ...decision } = await readJson<Record<string, unknown>>(lake.gate.store, original!);
      const planted = original!.replace('dt=2026-12-21', 'dt=2026-12-22');
      await lake.gate.store.put(planted, JSON.stringify(decision));
      for (const drop of [1, 2]) {
        lake.tick();
        await dropAndSettle(lake, 'good', 'dt=2026-12-22');
        expect({ drop, outcomes: notices(lake, 'dt=2026-12-22').map((n) => n.attributes.outcome) }).toEqual({ drop, outcomes: ['misplaced_record', ...Array(drop).fill('published')] });
      }
      expect(await keys(lake.gate.store, 'quarantine/orders/v1/dt=2026-12-21/')).toEqual(quarantined);
      expect(await readJson(lake.gate.store, planted)).toEqual(decision);
      const [page] = notices(lake, 'dt=2026-12-22');
      expect(page).toMatchObject({ attributes: { contract: 'orders', version: 'v1', severity: 'critical' }, body: expect.stringContaining(`names orders v1 dt=2026-12-21`) });
      expect(warn).toHaveBeenCalledWith(expect.stringContaining(`contract-gate: ignored s3://lake/${planted}: it names orders v1 dt=2026-12-21`));
      await expect(readRecorded(lake.gate.store, planted)).rejects.toMatchObject({ code: 'storage_failed', message: expect.stringContaining('is not believed and not carried out') });
    } finally {
      warn.mockRestore();
    }
  });

  it('is an audit record the owners\' commands do not go by', async () => {
    const address = { dataset: 'orders', major: 1, partition: 'dt=2026-06-03' };
    const foreign = { format: 'contract-gate/audit@2', seq: 1, prev_sha256: null, dataset: 'orders', major: 1, partition: 'dt=2026-06-04', action: 'release', state: 'done', from: { attempt: 'x' } };
    await lake.gate.store.put('_audit/orders/v1/dt=2026-06-03/00000001.json', JSON.stringify(foreign));
    const [link] = await readChain(lake.gate.store, DEFAULT_LAYOUT, address);
    expect(link?.read).toEqual({ problem: 'disagrees with its key: it names partition "dt=2026-06-04" where its key says "dt=2026-06-03"' });
  });
});
