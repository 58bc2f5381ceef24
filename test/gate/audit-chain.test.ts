import { describe, expect, it } from 'vitest';
import { appendAudit, readChain, readLatest } from '../../lib/gate/audit-chain.js';
import type { AuditEntry } from '../../lib/gate/audit-record.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { chainBreaks } from '../../lib/gate/audit-verify.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';

const bucket = useLocalBucket('cg-audit-chain-', { each: true });
const address = { dataset: 'orders', major: 1, partition: 'dt=2026-11-30' };
const ref = (attempt: string) => ({ address, attempt, prefix: `quarantine/orders/v1/dt=2026-11-30/${attempt}/` });

function entry(attempt: string, action: 'redrive' | 'release', state: AuditEntry['state'] = 'done'): AuditEntry {
  return { action, state, by: 'ana', caller: null, reason: null, at: '2026-11-30T06:00:00Z', from: { attempt, folder: 'x', status: 'fail', summary: 's' }, copies: [] };
}

describe('the audit chain of a partition', () => {
  it('stays one line when records of different attempts are appended at once: each links the one before', async () => {
    const written = await Promise.all(['A', 'B', 'C', 'D'].map((attempt) => appendAudit(bucket.store, DEFAULT_LAYOUT, address, entry(attempt, 'release'), undefined)));
    expect(written.map((w) => w.record.seq).sort()).toEqual([1, 2, 3, 4]);
    const chain = await readChain(bucket.store, DEFAULT_LAYOUT, address);
    expect(chain.map((link) => link.place.seq)).toEqual([1, 2, 3, 4]);
    expect(chainBreaks(DEFAULT_LAYOUT, address, chain)).toEqual([]);
  });

  it('hands back the newer record, writing nothing, when the attempt\'s thread moved on from the one expected', async () => {
    const copying = await appendAudit(bucket.store, DEFAULT_LAYOUT, address, entry('A', 'redrive', 'copying'), undefined);
    const marking = await appendAudit(bucket.store, DEFAULT_LAYOUT, address, { ...copying.record, state: 'marking' }, copying);
    const late = await appendAudit(bucket.store, DEFAULT_LAYOUT, address, { ...copying.record, state: 'withdrawn' }, copying);
    expect(late).toEqual(marking);
    expect((await readChain(bucket.store, DEFAULT_LAYOUT, address)).map((link) => link.place.seq)).toEqual([1, 2]);
    expect(marking.record).toMatchObject({ seq: 2, prev_sha256: copying.sha256, state: 'marking' });
  });

  it('still finds an action done before the chain, in the record the state prefix kept', async () => {
    const legacy = { format: 'contract-gate/audit@1', action: 'release', state: 'done', by: 'ana', reason: 'r', at: '2026-11-01T00:00:00Z', from: { attempt: 'OLD' }, copies: [] };
    await bucket.store.put('_gate/audit/orders/v1/dt=2026-11-30/OLD-release.json', JSON.stringify(legacy));
    expect(await readLatest(bucket.store, DEFAULT_LAYOUT, ref('OLD'), 'release')).toMatchObject({ key: '_gate/audit/orders/v1/dt=2026-11-30/OLD-release.json', record: { state: 'done', by: 'ana' } });
    expect(await readLatest(bucket.store, DEFAULT_LAYOUT, ref('OLD'), 'redrive')).toBeUndefined();
  });
});
