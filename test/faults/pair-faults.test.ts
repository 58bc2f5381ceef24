import { beforeAll, describe, expect, it } from 'vitest';
import { optionsFromEnv, runFaultHarness } from './fault-harness.js';
import type { RunReport } from './fault-run.js';
import { PAIR_SCENARIOS } from './pair-scenarios.js';
import { isEnforced } from './violations.js';

/**
 * Linked v1/v2 pairs under the fault harness at a small size (one seed per pair scenario;
 * FAULT_SEEDS changes it). `npm run test:faults:pairs` is the full run of 1,000 pair trials.
 */
let reports: RunReport[] = [];

beforeAll(async () => {
  ({ reports } = await runFaultHarness({ ...optionsFromEnv({ seeds: PAIR_SCENARIOS.length, workers: 1 }), pairs: true }));
}, 600_000);

describe('a linked pair under injected S3 faults, crashes, concurrency and deadlines', () => {
  it.each(PAIR_SCENARIOS.map((s) => s.name))('publishes both sides or neither, once, in the %s scenario', (name) => {
    const runs = reports.filter((r) => r.scenario === name);
    const broken = runs.flatMap((r) => r.violations.filter((v) => isEnforced(v.invariant)).map((v) => `seed ${r.seed}: ${v.invariant}: ${v.detail}`));
    expect(runs.length).toBeGreaterThan(0);
    expect(broken).toEqual([]);
  });
});
