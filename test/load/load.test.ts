import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalGate } from '../../lib/local/local-gate.js';
import { dropAll, partitionFiles, partitionName, startLoadGate } from './load-harness.js';

// `npm test` runs a small load; `npm run test:load` sets LOAD_FULL=1 for the stated sizes.
const FULL = process.env.LOAD_FULL === '1';
const PARTITIONS = FULL ? 200 : 24;
const MANY_FILES = FULL ? 10_000 : 1_100;
const TIMEOUT_MS = FULL ? 1_200_000 : 120_000;

let gate: LocalGate;
let verdictAt: Map<string, number>;

beforeAll(async () => {
  ({ gate, verdictAt } = await startLoadGate());
});
afterAll(() => gate.stop());

async function outcomes(partition: string): Promise<{ published: boolean; quarantined: number; staged: number }> {
  const count = async (prefix: string) => {
    let n = 0;
    for await (const object of gate.store.list(prefix)) if (object.key.endsWith('_SUCCESS') || object.key.endsWith('_REPORT.json') || prefix.startsWith('staging')) n++;
    return n;
  };
  return {
    published: (await count(`published/orders/v1/${partition}/`)) === 1,
    quarantined: await count(`quarantine/orders/v1/${partition}/`),
    staged: await count(`staging/orders/v1/${partition}/`),
  };
}

describe(`load on the local endpoint (${FULL ? 'full' : 'small'} run)`, () => {
  it(`gives each of ${PARTITIONS} partitions dropped at once exactly one outcome`, async () => {
    const drops = Array.from({ length: PARTITIONS }, (_, i) => ({ partition: partitionName(i), bad: i % 3 === 0, files: partitionFiles(1 + (i % 20), 50, i % 3 === 0, i * 10_000) }));
    const started = performance.now();
    const droppedAt = await dropAll(gate, drops);
    await gate.settled();
    const seconds = (performance.now() - started) / 1000;
    for (const drop of drops) {
      const seen = await outcomes(drop.partition);
      expect({ partition: drop.partition, ...seen }).toEqual({ partition: drop.partition, published: !drop.bad, quarantined: drop.bad ? 1 : 0, staged: 0 });
    }
    const slowest = Math.max(...drops.map((d) => (verdictAt.get(d.partition) ?? Infinity) - (droppedAt.get(d.partition) ?? 0)));
    const files = drops.reduce((n, d) => n + d.files.length, 0);
    console.log(`load: ${PARTITIONS} partitions (${files} files) in ${seconds.toFixed(1)} s: ${(PARTITIONS / seconds).toFixed(1)} partitions/s, ${(files / seconds).toFixed(0)} files/s; slowest verdict ${(slowest / 1000).toFixed(2)} s after its marker`);
    expect(Number.isFinite(slowest)).toBe(true);
  }, TIMEOUT_MS);

  it(`lists ${MANY_FILES} small files of one partition across pages and judges them all`, async () => {
    const partition = 'dt=2099-06-30';
    const files = partitionFiles(MANY_FILES, 2, false, 5_000_000);
    const started = performance.now();
    await dropAll(gate, [{ partition, files }]);
    await gate.settled();
    const outcome = gate.outcomes.flatMap((o) => o.results).find((r) => 'decision' in r && r.decision.address.partition === partition);
    if (!outcome || !('decision' in outcome)) throw new Error('no verdict for the big partition');
    expect(outcome.status).toBe('published');
    expect(outcome.decision.report.files).toHaveLength(MANY_FILES);
    expect(outcome.decision.report.rows).toBe(MANY_FILES * 2);
    console.log(`load: one partition of ${MANY_FILES} files published in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, TIMEOUT_MS);
});
