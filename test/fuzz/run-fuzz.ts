import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { describeRecord, failures, pathName, runFuzz } from './fuzz-run.js';
import { pathTable, reasonTable, summaryTable } from './fuzz-summary.js';
import { PEAK_RSS_MB, runBombs } from '../hostile/bomb-run.js';

/**
 * `npm run test:fuzz`: mutates valid Parquet files and reads each in a memory-limited worker, then
 * validates the hostile corpus (memory bombs) each in a process of its own under a peak-RSS bound.
 * Exits non-zero on any TIMEOUT, OOM or CRASH, or a bomb not refused within its bound. Options: --files N, --seed S, --workers W,
 * --save DIR (writes each failing file there, named by its index, kind and read path; replay-fuzz.ts
 * rebuilds one from the seed and its index instead).
 */
const { values } = parseArgs({
  options: {
    files: { type: 'string', default: '10000' },
    seed: { type: 'string', default: '20261130' },
    workers: { type: 'string' },
    save: { type: 'string' },
  },
});

const files = Number(values.files);
const seed = Number(values.seed);
let lastPrint = 0;
const report = await runFuzz({
  files,
  seed,
  ...(values.workers ? { workers: Number(values.workers) } : {}),
  onRecord: (record, done, total) => {
    if (record.outcome !== 'read' && record.outcome !== 'unreadable') console.log(describeRecord(record));
    if (performance.now() - lastPrint > 10_000 || done === total) {
      lastPrint = performance.now();
      console.log(`... ${done}/${total} files`);
    }
  },
});

console.log(`\nseed ${seed}: ${report.records.length} files in ${report.seconds.toFixed(0)} s, ${report.restarts} worker restarts, peak RSS ${report.peakRssMb} MB\n`);
console.log(summaryTable(report));
console.log(`\n${pathTable(report)}`);
console.log(`\n${reasonTable(report)}`);
// The hostile corpus (test/hostile/parquet-bombs.ts): each file in a process of its own, its peak RSS bound.
const bombs = await runBombs();
console.log(`\nhostile corpus: ${bombs.length} files, each validated in its own process (peak RSS bound ${PEAK_RSS_MB} MB)`);
for (const bomb of bombs) console.log(`  ${bomb.failure ? 'FAIL' : 'ok  '} ${String(bomb.maxRssMb).padStart(4)} MB  ${bomb.name}${bomb.failure ? `: ${bomb.failure}` : ''}`);
if (bombs.some((bomb) => bomb.failure)) process.exitCode = 1;

const failed = failures(report);
if (values.save && failed.length) {
  mkdirSync(values.save, { recursive: true });
  for (const record of failed) writeFileSync(join(values.save, `${record.index}-${record.kind}-${pathName(record.path)}.parquet`), record.bytes ?? new Uint8Array());
}
if (failed.length) {
  console.log(`\n${failed.length} files failed (TIMEOUT/OOM/CRASH)`);
  process.exitCode = 1;
}
