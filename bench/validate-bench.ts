import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { ensureData, pruneStaleData } from './bench-data.js';
import { snapshotBuild } from './build-snapshot.js';
import { readKnobs } from './bench-knobs.js';
import { targetMark, type ShapeResult, type Target } from './bench-report.js';
import { printTableTargets, printTables, runTables, tableProblems } from './bench-tables.js';
import { bundleSection } from './bundle-section.js';
import { NOW } from './orders-data.js';
import { s3Section, type S3Result } from './s3-section.js';
import { printSmallFile, smallFileSection } from './small-file-section.js';
import { canonical } from './violation-set.js';
import { wideContractStale } from './wide-contract.js';

/**
 * `npm run bench`: contract-gate's validation next to DuckDB's SQL checks of the same contract,
 * over partitions of many shapes (shape-list.ts): the one the engine was tuned on and the ones it
 * was not built for. Each engine runs as its own process, alternating run by run, medians of
 * BENCH_RUNS, in one table per core count (bench-tables.ts: 2 cores, and 1 core as a 1,769 MB
 * Lambda has); then what the Lambda path fetches from a local S3 endpoint, and the validate
 * Lambda's bundle size and initialisation. Fails (exit 1) when, in any table, an engine's verdict or
 * any rule's count differs from the other engine's or from the shape's planted violations, or when
 * an engine timed out or crashed (no verdict to compare); the targets are reported, not enforced.
 * Knobs: bench-knobs.ts.
 */
const knobs = readKnobs();
const dist = snapshotBuild();
const stale = knobs.shapes.some((s) => s.id.startsWith('wide')) ? wideContractStale() : undefined;
if (stale) throw new Error(stale);
const load = { start: loadavg()[0]!, end: NaN };
process.stderr.write(`load average (1 min) at start: ${load.start.toFixed(2)}; shapes: ${knobs.shapes.map((s) => s.id).join(', ')}; tables (cores): ${knobs.cores.join(', ')}\n`);
pruneStaleData();
ensureData(dist, knobs.shapes);

const tables = runTables(dist, knobs);
// The shapes' descriptions and plants, and the S3 section's expectation, are the same in every table.
const results: readonly ShapeResult[] = tables[0]!.shapes;

const s3Shape = knobs.shapes.find((s) => s.id === 'friendly-5m');
const s3 = knobs.s3 && s3Shape ? await s3Section(dist, s3Shape, knobs.timeoutMs) : undefined;
const s3Problem = s3 && ('error' in s3 ? `S3 path: ${s3.error}` : s3Problems(s3));
const bundle = knobs.bundle ? await bundleSection(knobs.initRuns) : undefined;
const small = smallFileSection(dist, join(dist, 'bundles', 'cli', 'contract-gate.mjs'), knobs.timeoutMs);
load.end = loadavg()[0]!;

const problems = [...tableProblems(tables), ...(s3Problem ? [s3Problem] : []), ...(small?.problem ? [`small file: ${small.problem}`] : [])];
const globalTargets: Target[] = [
  ...(s3 && !('error' in s3) ? [{ name: `bytes fetched from S3, ${s3.shape}: <= 50% of the partition`, value: `${(s3.share * 100).toFixed(1)}%`, pass: s3.share <= 0.5 }] : []),
  ...(bundle ? [
    { name: 'validate bundle (index.mjs): <= 1.5 MB', value: `${(bundle.code_bytes / 2 ** 20).toFixed(2)} MB`, pass: bundle.code_bytes <= 1.5 * 2 ** 20 },
    { name: 'validate module init (deployed NODE_OPTIONS): <= 300 ms', value: `${bundle.init.deployed.import_ms_median.toFixed(0)} ms`, pass: bundle.init.deployed.import_ms_median <= 300 },
  ] : []),
  ...(small ? [{ name: 'validate of a 1,000-row Parquet file, fresh process: <= 1.0x DuckDB', value: `${small.ratio.toFixed(2)}x`, pass: small.ratio <= 1 }] : []),
];

console.log(`\ncontract-gate validate vs DuckDB SQL checks: ${knobs.runs} run(s) each, alternating, medians; check time ${NOW}; ${availableParallelism()} cores; tables: ${knobs.cores.map((c) => `${c} core${c === 1 ? '' : 's'}`).join(', ')}; validate workers: ${knobs.workers ?? 'CLI default'}; timeout ${knobs.timeoutMs / 1000} s a process`);
console.log(`load average (1 min): ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end${Math.max(load.start, load.end) > availableParallelism() ? '  (machine busy: wall times are inflated; CPU s is steadier)' : ''}`);
printTables(tables);
console.log('\nshapes:');
for (const r of results) console.log(`  ${r.id.padEnd(24)} ${r.label} (${r.contract}); planted: ${r.expected || 'nothing'}`);
printSections(s3, bundle);
if (small) printSmallFile(small);
console.log('\ntargets (reported, not enforced):');
printTableTargets(tables);
for (const t of globalTargets) console.log(`  ${targetMark(t)}  ${t.name}: ${t.value}`);
if (problems.length === 0) console.log(`\nverdicts and per-rule counts identical across contract-gate and DuckDB and equal to the planted violations in every shape, table and run${s3 && !('error' in s3) ? ', and on the S3 path' : ''}`);
else printProblems(problems);

writeFileSync(join('bench', 'results.json'), `${JSON.stringify({
  generated_at: new Date().toISOString(), node: process.version, cores: availableParallelism(), load_average: load, runs: knobs.runs,
  timeout_s: knobs.timeoutMs / 1000, workers: knobs.workers ?? null, now: NOW, tables, s3: s3 ?? null, bundle: bundle ?? null, small_file: small ?? null,
  targets: globalTargets, ok: problems.length === 0, problems,
}, (_, v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(3)) : v), 2)}\n`);
process.exitCode = problems.length === 0 ? 0 : 1;

function s3Problems(result: S3Result): string | undefined {
  const gate = results.find((r) => r.id === result.shape);
  const planted = gate?.expected ?? '';
  return canonical(result.violations) === planted ? undefined : `S3 path (decide over the local endpoint): [${canonical(result.violations)}] differs from the planted [${planted}]`;
}

function printSections(s3Result: typeof s3, bundleResult: typeof bundle): void {
  if (s3Result && 'error' in s3Result) console.log(`\nS3 (decide over the local endpoint, ${s3Result.shape}): ${s3Result.error}`);
  else if (s3Result) {
    console.log(`\nS3 (decide over the local endpoint, ${s3Result.shape}): stats.bytes_read ${mb(s3Result.stats.bytes_read)} of ${mb(s3Result.stats.bytes_total)} = ${(s3Result.share * 100).toFixed(1)}% in ${s3Result.stats.read_requests} requests; `
      + `the endpoint returned ${mb(s3Result.endpoint.bytes)} in ${s3Result.endpoint.requests} reads; decide ${(s3Result.decide_ms / 1000).toFixed(2)} s, process ${(s3Result.wall_ms / 1000).toFixed(2)} s, peak RSS ${s3Result.peak_rss_mb.toFixed(0)} MB`);
  } else if (knobs.s3) console.log('\nS3 section skipped: it runs over friendly-5m, which BENCH_SHAPES left out');
  if (!bundleResult) return;
  console.log(`validate bundle: index.mjs ${mb(bundleResult.code_bytes)}, map ${mb(bundleResult.map_bytes)}, asset total ${mb(bundleResult.asset_bytes)} (about ${mb(bundleResult.zipped_bytes)} deflated); largest inputs: ${bundleResult.top_inputs.map((i) => `${i.name} ${mb(i.bytes)}`).join(', ')}`);
  for (const [name, init] of Object.entries(bundleResult.init)) {
    console.log(`validate init (${name === 'deployed' ? 'as deployed' : 'no NODE_OPTIONS'}): import ${init.import_ms_median.toFixed(0)} ms median (${init.import_ms.map((v) => v.toFixed(0)).join(', ')}), process start to ready ${init.ready_ms_median.toFixed(0)} ms; handles left open after import: ${init.open_handles.length ? init.open_handles.join(', ') : 'none'}`);
  }
}

function printProblems(all: readonly string[]): void {
  console.log(`\nVERDICTS DIFFER OR ARE MISSING (${all.length}):`);
  for (const p of all) console.log(`  ${p}`);
  for (const table of tables) for (const r of table.shapes.filter((s) => !s.ok)) {
    console.log(`\n${r.id} (${table.cores} core${table.cores === 1 ? '' : 's'}): planted [${r.expected}]`);
    for (const [engine, verdict] of Object.entries(r.verdicts)) console.log(`  ${engine}: ${verdict}`);
    console.log(`  reproduce:\n    ${r.reproduce.join('\n    ')}`);
  }
}

function mb(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}
