import { beforeAll, describe, expect, it } from 'vitest';
import { optionsFromEnv, runFaultHarness } from './fault-harness.js';
import type { RunReport } from './fault-run.js';
import { faultTable } from './fault-table.js';
import { SCENARIOS } from './scenarios.js';
import { isEnforced } from './violations.js';

/**
 * The fault-injection harness at a small size (20 seeds over all scenarios; FAULT_SEEDS changes
 * it). `npm run test:faults` is the full run of 1,000 seeds.
 */
let reports: RunReport[] = [];

beforeAll(async () => {
  ({ reports } = await runFaultHarness(optionsFromEnv({ seeds: 20, workers: 1 })));
  console.log(faultTable(reports));
}, 300_000);

describe('the gate under injected S3 faults, crashes, duplicates, concurrency and deadlines', () => {
  it.each(SCENARIOS.map((s) => s.name))('keeps every invariant in the %s scenario', (name) => {
    const runs = reports.filter((r) => r.scenario === name);
    const broken = runs.flatMap((r) => r.violations.filter((v) => isEnforced(v.invariant)).map((v) => `seed ${r.seed}: ${v.invariant}: ${v.detail}`));
    expect(broken).toEqual([]);
  });
});
