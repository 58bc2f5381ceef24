/**
 * `npm run test:faults`: the full fault-injection run (1,000 seeds unless FAULT_SEEDS says
 * otherwise); `npm run test:faults:pairs` (FAULT_PAIRS=1) the same over linked v1/v2 pairs. Prints a table of invariant violations per scenario; exits 1 if there is any.
 * FAULT_REPORT=<file> also writes every run that broke something, as JSON.
 */
import './outside/quiet-sdk.js';
import { writeFileSync } from 'node:fs';
import { optionsFromEnv, runFaultHarness } from './fault-harness.js';
import { runInWorkers } from './fault-workers.js';
import type { RunReport } from './fault-run.js';
import { faultTable, totalViolations, violationDetails } from './fault-table.js';

const options = optionsFromEnv({ seeds: 1_000, workers: 2 });
const started = Date.now();
const seconds = () => Math.round((Date.now() - started) / 1000);

/** Progress on stderr: every 50 seeds, and every seed that broke something. */
function progress(report: RunReport, done: number): void {
  const broke = report.violations.length > 0 ? ` (seed ${report.seed} ${report.scenario}: ${report.violations.length} violations)` : '';
  if (broke || done % 50 === 0) process.stderr.write(`  ${done}/${options.seeds.length} seeds, ${seconds()} s${broke}\n`);
}

const run = { ...options, onRun: progress };
const { reports, counts } = options.workers > 1 ? await runInWorkers(run, options.workers) : await runFaultHarness(run);
const seeds = `seeds ${options.seeds[0]}..${options.seeds.at(-1)}`;
const what = options.pairs ? 'linked v1/v2 pair trials' : 'single drops';
console.log(`\nfault injection (${what}): ${seeds}, ${seconds()} s; crash sweeps over ${counts.good} mutating calls of a publish and ${counts.bad} of a quarantine\n`);
console.log(faultTable(reports));
const details = violationDetails(reports);
// Every violation, for when the few printed per invariant are not enough.
if (process.env.FAULT_REPORT) writeFileSync(process.env.FAULT_REPORT, `${JSON.stringify(reports.filter((r) => r.violations.length > 0), null, 2)}\n`);
if (details.length > 0) console.log(`\n${details.join('\n')}`);
process.exitCode = totalViolations(reports) > 0 ? 1 : 0;
