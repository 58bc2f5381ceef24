/**
 * The outside-view fault harness: `contract-gate serve` as a real process, producers on the AWS
 * SDK, SIGKILLs, and the gate's promises checked on the final state of every trial.
 *
 *   FAULT_SEEDS=N (1,000)   FAULT_FIRST_SEED=S (0)   OUTSIDE_SEEDS=3,17,99 (a list instead)
 *   OUTSIDE_PARALLEL (8 trials at once)   OUTSIDE_SETTLE_MS (60,000)   OUTSIDE_SERVE=tsx|dist (tsx)
 *   OUTSIDE_GATE_ROOT=<checkout> (serve from another checkout, e.g. `git archive HEAD` unpacked)
 *   OUTSIDE_KEEP=1 (keep the run's --dir)   OUTSIDE_REPORT=<file> (every violation, JSON)   OUTSIDE_DETAILS=N (5)
 *
 * Replay one trial: FAULT_FIRST_SEED=<seed> FAULT_SEEDS=1 npx tsx test/faults/outside/run-outside.ts
 * (the seed fixes the trial's data and faults; the interleaving with the gate is the machine's).
 * Exits 1 on any violation.
 */
import './quiet-sdk.js';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runOutside, type TrialResult } from './outside-harness.js';
import { failingTrials, outcomeCounts, outsideDetails, outsideTable } from './outside-table.js';

const number = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const first = number('FAULT_FIRST_SEED', 0);
const seeds = process.env.OUTSIDE_SEEDS ? process.env.OUTSIDE_SEEDS.split(',').map(Number) : Array.from({ length: number('FAULT_SEEDS', 1_000) }, (_, i) => first + i);
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

function progress(trial: TrialResult, done: number): void {
  const broke = trial.violations.length > 0 || trial.error ? ` (seed ${trial.seed}: ${trial.error ? 'harness error' : `${trial.violations.length} violations`})` : '';
  if (done % 50 === 0 || done === seeds.length) process.stderr.write(`  outside: ${done}/${seeds.length} trials, ${seconds()} s${broke}\n`);
}

const run = await runOutside({
  seeds,
  parallel: number('OUTSIDE_PARALLEL', 8),
  settleMs: number('OUTSIDE_SETTLE_MS', 60_000),
  build: process.env.OUTSIDE_SERVE === 'dist' ? 'dist' : 'tsx',
  keep: process.env.OUTSIDE_KEEP === '1',
  root: fileURLToPath(new URL('../../../', import.meta.url)),
  ...(process.env.OUTSIDE_GATE_ROOT ? { gateRoot: process.env.OUTSIDE_GATE_ROOT } : {}),
  onTrial: progress,
});
const { trials, serve, notices } = run;
const range = seeds.length === 1 ? `seed ${seeds[0]}` : `${seeds.length} seeds ${seeds[0]}..${seeds.at(-1)}`;
console.log(`\noutside-view faults: ${range}, ${seconds()} s; serve started ${serve.starts}× (${serve.kills} SIGKILLs, ${serve.crashes} exits of its own)`);
console.log(`decisions: ${outcomeCounts(trials)}; notices ${notices.notices}, ${notices.byDrop} matched by their "drop" attribute${notices.byDrop < notices.notices ? ', the rest by attempt (the gate does not add "drop" yet)' : ''}\n`);
if (run.late.length > 0) console.log(`note: ${run.late.length} trials changed after their check, the gate still at work on them (their notices are matched with the final decisions): seeds ${run.late.join(', ')}\n`);
console.log(outsideTable(trials));
const details = outsideDetails(trials, number('OUTSIDE_DETAILS', 5));
if (details.length > 0) console.log(`\n${details.join('\n')}\n\nreplay a trial: FAULT_FIRST_SEED=<seed> FAULT_SEEDS=1 npx tsx test/faults/outside/run-outside.ts`);
if (process.env.OUTSIDE_KEEP === '1') console.log(`\nthe run's --dir: ${run.dir}`);
if (process.env.OUTSIDE_REPORT) writeFileSync(process.env.OUTSIDE_REPORT, `${JSON.stringify(trials.filter((t) => t.violations.length > 0 || t.error), null, 2)}\n`);
process.exitCode = failingTrials(trials) > 0 || serve.crashes > 0 ? 1 : 0;
