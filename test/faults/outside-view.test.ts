import { fileURLToPath } from 'node:url';
import { assert, describe, it } from 'vitest';
import './outside/quiet-sdk.js';
import { runOutside } from './outside/outside-harness.js';
import { failingTrials, outsideDetails, outsideTable } from './outside/outside-table.js';

/**
 * A few dozen trials of the outside-view fault harness (test/faults/outside/): `contract-gate
 * serve` as a real process, producers on the AWS SDK overwriting, deleting and adding files,
 * re-putting markers and racing backfills, SIGKILLs of serve, and the gate's promises checked on
 * each partition's final state. `npm run test:faults` runs 1,000. Nothing here is timed: the only
 * bound is how long a partition's markers may take to go (a minute), far past any real run.
 */
const SEEDS = Number(process.env.OUTSIDE_TEST_SEEDS ?? 30);

describe('the gate seen from outside', () => {
  it(`keeps its promises over ${SEEDS} trials of producer faults and SIGKILLs`, async () => {
    const run = await runOutside({
      seeds: Array.from({ length: SEEDS }, (_, i) => 10_000 + i),
      parallel: 4,
      settleMs: 60_000,
      build: 'tsx',
      keep: false,
      root: fileURLToPath(new URL('../../', import.meta.url)),
    });
    if (failingTrials(run.trials) > 0 || run.serve.crashes > 0) {
      const crashes = run.serve.crashes > 0 ? `serve exited on its own ${run.serve.crashes}×\n` : '';
      assert.fail(`${failingTrials(run.trials)} of ${run.trials.length} trials broke a promise\n${crashes}\n${outsideTable(run.trials)}\n\n${outsideDetails(run.trials, 3).join('\n')}\n\nreplay: FAULT_FIRST_SEED=<seed> FAULT_SEEDS=1 npx tsx test/faults/outside/run-outside.ts`);
    }
  }, 900_000);
});
