import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, readSync, closeSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { build } from 'esbuild';
import { DEFAULT_LAYOUT, stagingPrefix } from '../lib/gate/gate-layout.js';
import { startS3Emulator } from '../lib/local/s3-emulator.js';
import { createS3Client } from '../lib/storage/s3-client.js';
import {
  canonical, COLUMNS, CONTRACT, EXPECTED, fileCount, fileName, NOW, PARTITION, partitionDir, ROW_GROUP, type CommonViolation, type Layout,
} from './orders-data.js';

/**
 * `npm run bench`: contract-gate's validation next to DuckDB and a plain hyparquet decode over the
 * same orders partitions (1M rows in one file, 5M rows in one file and in ten), each engine in its
 * own process, medians of several runs; then what the Lambda path fetches from a local S3
 * endpoint, and the validate Lambda's bundle size and module initialisation time. Fails (exit 1)
 * only when the engines disagree on the violations; targets are reported, not enforced.
 *
 * Knobs: BENCH_RUNS (3), BENCH_SIZES ("1000000,5000000": the small and the large partition),
 * BENCH_INIT_RUNS (7), BENCH_WORKERS (passed to `validate --workers`; unset: the CLI's default),
 * BENCH_S3=0 and BENCH_BUNDLE=0 skip those sections.
 */
const RUNS = positive('BENCH_RUNS', 3);
const INIT_RUNS = positive('BENCH_INIT_RUNS', 7);
const SIZES = (process.env.BENCH_SIZES ?? '1000000,5000000').split(',').map(Number);
const SMALL = Math.min(...SIZES);
const LARGE = Math.max(...SIZES);
const WORKERS = process.env.BENCH_WORKERS;
const PRELOAD = './bench/report-peak-rss.mjs';
const MB = 2 ** 20;

const TARGETS = { goalVsDuckdb: 1.0, milestoneVsDuckdb: 2.0, peakRssMb: 256, rssGrowth: 1.5, bytesShare: 0.5, bundleMb: 1.5, initMs: 300 };

interface Scenario { readonly label: string; readonly rows: number; readonly layout: Layout; readonly dir: string }
interface Measurement { wallMs: number; peakRssBytes: number; cpuMs: number; status: number | null; stdout: string; stderr: string }
type EngineId = 'gate' | 'duckdb' | 'plain';

const ENGINES: Record<EngineId, { name: string; args: (s: Scenario) => string[]; okStatus: number[] }> = {
  gate: {
    name: 'contract-gate validate',
    args: (s) => ['dist/lib/cli/main.js', 'validate', '--contract', CONTRACT, s.dir, '--format', 'json', '--now', NOW, ...(WORKERS === undefined ? [] : ['--workers', WORKERS])],
    okStatus: [0, 1],
  },
  duckdb: { name: 'DuckDB SQL checks', args: (s) => ['dist/bench/duckdb-checks.js', CONTRACT, NOW, s.dir], okStatus: [0] },
  plain: { name: 'plain hyparquet decode', args: (s) => ['dist/bench/plain-decode.js', COLUMNS.join(','), s.dir], okStatus: [0] },
};

const load = { start: loadavg()[0]!, end: NaN };
const scenarios = scenarioList();
ensureData(scenarios);
warmPageCache(scenarios);

// ---- engines, interleaved run by run so a noisy moment hits all of them --------------------------
const measured = new Map<string, Measurement[]>();
const mismatches: string[] = [];
const key = (s: Scenario, engine: EngineId) => `${s.label}|${engine}`;
for (let run = 1; run <= RUNS; run++) {
  if (!process.stderr.isTTY) process.stderr.write(`run ${run}/${RUNS}...\n`);
  for (const scenario of scenarios) {
    for (const engine of Object.keys(ENGINES) as EngineId[]) {
      progress(`run ${run}/${RUNS}: ${scenario.label}, ${ENGINES[engine].name}`);
      const list = measured.get(key(scenario, engine)) ?? [];
      list.push(measure(ENGINES[engine].args(scenario), ENGINES[engine].okStatus));
      measured.set(key(scenario, engine), list);
    }
    const gate = gateViolations(measured.get(key(scenario, 'gate'))!.at(-1)!);
    const duck = duckdbResult(measured.get(key(scenario, 'duckdb'))!.at(-1)!);
    const plain = JSON.parse(measured.get(key(scenario, 'plain'))!.at(-1)!.stdout) as { rows: number };
    if (canonical(gate.violations) !== canonical(duck.violations)) {
      mismatches.push(`${scenario.label}, run ${run}: contract-gate [${canonical(gate.violations)}] vs DuckDB [${canonical(duck.violations)}]`);
    }
    if (gate.rows !== scenario.rows || duck.rows !== scenario.rows || plain.rows !== scenario.rows) {
      mismatches.push(`${scenario.label}, run ${run}: rows counted: contract-gate ${gate.rows}, DuckDB ${duck.rows}, plain decode ${plain.rows}; expected ${scenario.rows}`);
    }
  }
}
progress('');

const rows = scenarios.flatMap((scenario) => {
  const summary = (engine: EngineId) => summarise(measured.get(key(scenario, engine))!);
  const duck = summary('duckdb');
  const plain = summary('plain');
  return (Object.keys(ENGINES) as EngineId[]).map((engine) => {
    const s = summary(engine);
    return {
      scenario: scenario.label, engine: ENGINES[engine].name, id: engine, rows: scenario.rows, runs: s.runs,
      wall_s: s.wallMs / 1000, rows_per_s: scenario.rows / (s.wallMs / 1000), peak_rss_mb: s.peakRssBytes / MB, cpu_s: s.cpuMs / 1000,
      vs_duckdb: s.wallMs / duck.wallMs, vs_plain: s.wallMs / plain.wallMs, cpu_vs_duckdb: s.cpuMs / duck.cpuMs,
      walls_s: measured.get(key(scenario, engine))!.map((m) => round(m.wallMs / 1000, 2)),
    };
  });
});
const duckPhases = scenarios.map((scenario) => ({ scenario: scenario.label, ...duckdbResult(measured.get(key(scenario, 'duckdb'))!.at(-1)!).phases_ms }));
const expectedOk = scenarios.filter((s) => s.rows > 740_000).every((s) => canonical(gateViolations(measured.get(key(s, 'gate'))![0]!).violations) === canonical(EXPECTED));

// ---- the Lambda path over a local S3 endpoint ---------------------------------------------------
const largeOne = scenarios.find((s) => s.rows === LARGE && s.layout === 'one')!;
const s3 = process.env.BENCH_S3 === '0' ? undefined : await s3Section(largeOne);
if (s3 && canonical(s3.violations) !== canonical(duckdbResult(measured.get(key(largeOne, 'duckdb'))![0]!).violations)) {
  mismatches.push(`S3 path (decide over the local endpoint): [${canonical(s3.violations)}] differs from DuckDB on the same partition`);
}

// ---- the validate Lambda: bundle size and module initialisation ---------------------------------
const bundle = process.env.BENCH_BUNDLE === '0' ? undefined : await bundleSection();
load.end = loadavg()[0]!;

// ---- report ---------------------------------------------------------------------------------------
const scenarioOf = (rowCount: number, layout: Layout) => scenarios.find((s) => s.rows === rowCount && s.layout === layout)!;
const gateAt = (scenario: Scenario) => rows.find((r) => r.id === 'gate' && r.scenario === scenario.label)!;
const large = gateAt(scenarioOf(LARGE, 'one'));
const small = gateAt(scenarioOf(SMALL, 'one'));
const rssGrowth = large.peak_rss_mb / small.peak_rss_mb;
const oneGroup = gateAt(scenarioOf(LARGE, 'duckdb-one-group'));
const targets = [
  target(`wall, ${large.scenario}: <= ${TARGETS.goalVsDuckdb.toFixed(1)}x DuckDB (goal)`, `${large.vs_duckdb.toFixed(2)}x (CPU time ${large.cpu_vs_duckdb.toFixed(2)}x)`, large.vs_duckdb <= TARGETS.goalVsDuckdb),
  target(`wall, ${large.scenario}: <= ${TARGETS.milestoneVsDuckdb.toFixed(1)}x DuckDB (milestone)`, `${large.vs_duckdb.toFixed(2)}x`, large.vs_duckdb <= TARGETS.milestoneVsDuckdb),
  target(`peak RSS, ${large.scenario}: <= ${TARGETS.peakRssMb} MB`, `${large.peak_rss_mb.toFixed(0)} MB`, large.peak_rss_mb <= TARGETS.peakRssMb),
  target(`peak RSS, ${oneGroup.scenario}: <= ${TARGETS.peakRssMb} MB`, `${oneGroup.peak_rss_mb.toFixed(0)} MB`, oneGroup.peak_rss_mb <= TARGETS.peakRssMb),
  target(`peak RSS ${label(LARGE)} / ${label(SMALL)} (1 file): <= ${TARGETS.rssGrowth}x`, `${rssGrowth.toFixed(2)}x`, rssGrowth <= TARGETS.rssGrowth),
  ...(s3 ? [target(`bytes fetched from S3, ${label(LARGE)} 1 file: <= ${TARGETS.bytesShare * 100}% of the partition`, `${(s3.share * 100).toFixed(1)}%`, s3.share <= TARGETS.bytesShare)] : []),
  ...(bundle ? [
    target(`validate bundle (index.mjs): <= ${TARGETS.bundleMb} MB`, `${(bundle.code_bytes / MB).toFixed(2)} MB`, bundle.code_bytes <= TARGETS.bundleMb * MB),
    target(`validate module init (deployed NODE_OPTIONS): <= ${TARGETS.initMs} ms`, `${bundle.init.deployed.import_ms_median.toFixed(0)} ms`, bundle.init.deployed.import_ms_median <= TARGETS.initMs),
  ] : []),
];

console.log(`\norders partition: ${COLUMNS.length} columns, Snappy, row groups of ${ROW_GROUP.toLocaleString('en-US')}, violations planted in row groups 0 and 2 only; the DuckDB scenario is the same rows rewritten by DuckDB (defaults, one row group)`);
console.log(`contract ${CONTRACT}; check time ${NOW}; ${RUNS} runs each, medians; ${availableParallelism()} cores; validate workers: ${WORKERS ?? 'CLI default'}`);
console.log(`load average (1 min): ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end${Math.max(load.start, load.end) > availableParallelism() ? '  (machine busy: wall times are inflated; CPU s is steadier)' : ''}\n`);
printTable(rows);
console.log('\nDuckDB phases (last run, ms): ' + duckPhases.map((p) => `${p.scenario}: startup ${p.startup}, checks ${p.checks_query}, grain ${p.grain_query}`).join('; '));
console.log(`peak RSS of contract-gate validate, ${label(LARGE)} / ${label(SMALL)} (1 file): ${large.peak_rss_mb.toFixed(0)} / ${small.peak_rss_mb.toFixed(0)} MB = ${rssGrowth.toFixed(2)}x`);
if (s3) {
  console.log(`S3 (decide over the local endpoint, ${s3.scenario}): stats.bytes_read ${fmtBytes(s3.stats.bytes_read)} of ${fmtBytes(s3.stats.bytes_total)} = ${(s3.share * 100).toFixed(1)}% in ${s3.stats.read_requests} requests; `
    + `the endpoint returned ${fmtBytes(s3.endpoint.bytes)} in ${s3.endpoint.requests} reads; decide ${(s3.decide_ms / 1000).toFixed(2)} s, process ${(s3.wall_ms / 1000).toFixed(2)} s, peak RSS ${s3.peak_rss_mb.toFixed(0)} MB`);
}
if (bundle) {
  console.log(`validate bundle: index.mjs ${fmtBytes(bundle.code_bytes)}, map ${fmtBytes(bundle.map_bytes)}, asset total ${fmtBytes(bundle.asset_bytes)} (about ${fmtBytes(bundle.zipped_bytes)} deflated); largest inputs: ${bundle.top_inputs.map((i) => `${i.name} ${fmtBytes(i.bytes)}`).join(', ')}`);
  for (const [name, init] of Object.entries(bundle.init)) {
    console.log(`validate init (${name === 'deployed' ? 'NODE_OPTIONS=--enable-source-maps, as deployed' : 'no source maps'}): import ${init.import_ms_median.toFixed(0)} ms median (${init.import_ms.map((v) => v.toFixed(0)).join(', ')}), process start to ready ${init.ready_ms_median.toFixed(0)} ms; handles left open after import: ${init.open_handles.length ? init.open_handles.join(', ') : 'none'}`);
  }
}
console.log('\ntargets (reported, not enforced):');
for (const t of targets) console.log(`  ${t.pass ? 'PASS' : 'FAIL'}  ${t.name}: ${t.value}`);
const violations = gateViolations(measured.get(key(largeOne, 'gate'))![0]!).violations;
console.log(`\nviolations (${label(LARGE)}, 1 file): ${canonical(violations)}`);
if (!expectedOk) console.log(`warning: the engines agree, but not with the planted violations [${canonical(EXPECTED)}]`);
console.log(mismatches.length === 0 ? 'violations identical across contract-gate and DuckDB in every scenario and run' + (s3 ? ', and on the S3 path' : '') : `VIOLATIONS DIFFER:\n  ${mismatches.join('\n  ')}`);

writeFileSync(join('bench', 'results.json'), `${JSON.stringify({
  generated_at: new Date().toISOString(), node: process.version, cores: availableParallelism(), load_average: load, runs: RUNS, workers: WORKERS ?? null, now: NOW, contract: CONTRACT,
  engines: rows.map((r) => ({ ...r, wall_s: round(r.wall_s, 3), rows_per_s: Math.round(r.rows_per_s), peak_rss_mb: round(r.peak_rss_mb, 1), cpu_s: round(r.cpu_s, 2), vs_duckdb: round(r.vs_duckdb, 2), vs_plain: round(r.vs_plain, 2), cpu_vs_duckdb: round(r.cpu_vs_duckdb, 2) })),
  duckdb_phases_ms: duckPhases, rss_growth: round(rssGrowth, 2), s3: s3 ?? null, bundle: bundle ?? null,
  targets, violations, violations_identical: mismatches.length === 0, mismatches,
}, null, 2)}\n`);
process.exitCode = mismatches.length === 0 ? 0 : 1;

// ---- helpers ----------------------------------------------------------------------------------------

/** One status line on a terminal; nothing on a pipe (runs are announced there instead). */
function progress(text: string): void {
  if (process.stderr.isTTY) process.stderr.write(`\r${text.padEnd(78)}\r`);
}

function positive(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number >= 1`);
  return value;
}

function label(rowCount: number): string {
  return rowCount >= 1_000_000 && rowCount % 100_000 === 0 ? `${rowCount / 1_000_000}M` : rowCount.toLocaleString('en-US');
}

function scenarioList(): Scenario[] {
  const list: Scenario[] = [];
  for (const rowCount of [...new Set([SMALL, LARGE])]) {
    for (const layout of ['one', 'ten'] as const) {
      list.push({ label: `${label(rowCount)}, ${layout === 'one' ? '1 file' : `${fileCount('ten')} files`}`, rows: rowCount, layout, dir: partitionDir(rowCount, layout) });
    }
  }
  list.push({ label: `${label(LARGE)}, 1 file, DuckDB, 1 row group`, rows: LARGE, layout: 'duckdb-one-group', dir: partitionDir(LARGE, 'duckdb-one-group') });
  return list;
}

function ensureData(list: readonly Scenario[]): void {
  for (const s of list) {
    if (existsSync(s.dir)) continue;
    process.stderr.write(`generating ${s.dir} (once; reused while it exists)\n`);
    const child = spawnSync(process.execPath, ['--max-old-space-size=4096', 'dist/bench/generate-data.js', String(s.rows), s.layout], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`generating ${s.dir} failed (${child.status ?? child.signal})`);
  }
}

/** Reads every data file once, so the first measured run does not pay for the disk. */
function warmPageCache(list: readonly Scenario[]): void {
  const buffer = Buffer.alloc(8 * MB);
  for (const s of list) {
    for (let index = 0; index < fileCount(s.layout); index++) {
      const fd = openSync(join(s.dir, fileName(index)), 'r');
      while (readSync(fd, buffer, 0, buffer.length, null) > 0);
      closeSync(fd);
    }
  }
}

function measure(args: string[], okStatus: number[], env?: NodeJS.ProcessEnv): Measurement {
  const started = performance.now();
  const child = spawnSync(process.execPath, ['--import', PRELOAD, ...args], { encoding: 'utf8', maxBuffer: 256 * MB, ...(env ? { env } : {}) });
  const wallMs = performance.now() - started;
  const peak = /@@peak_rss_bytes=(\d+)/.exec(child.stderr);
  const cpu = /@@cpu_us=(\d+)/.exec(child.stderr);
  if (!peak || !cpu || child.status === null || !okStatus.includes(child.status)) throw new Error(`${args.join(' ')} failed (${child.status ?? child.signal}):\n${child.stderr}`);
  return { wallMs, peakRssBytes: Number(peak[1]), cpuMs: Number(cpu[1]) / 1000, status: child.status, stdout: child.stdout, stderr: child.stderr };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function summarise(list: readonly Measurement[]): { runs: number; wallMs: number; peakRssBytes: number; cpuMs: number } {
  return { runs: list.length, wallMs: median(list.map((m) => m.wallMs)), peakRssBytes: median(list.map((m) => m.peakRssBytes)), cpuMs: median(list.map((m) => m.cpuMs)) };
}

function gateViolations(m: Measurement): { rows: number; violations: CommonViolation[] } {
  const report = JSON.parse(m.stdout) as { rows: number; violations: { rule: string; column?: string; count: number }[] };
  return { rows: report.rows, violations: report.violations.map((v) => ({ rule: v.rule, column: v.column ?? null, count: v.count })) };
}

function duckdbResult(m: Measurement): { rows: number; violations: CommonViolation[]; phases_ms: { startup: number; checks_query: number; grain_query: number } } {
  return JSON.parse(m.stdout);
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

function fmtBytes(bytes: number): string {
  return bytes >= MB ? `${(bytes / MB).toFixed(2)} MB` : `${(bytes / 1024).toFixed(1)} KB`;
}

function target(name: string, value: string, pass: boolean): { name: string; value: string; pass: boolean } {
  return { name, value, pass };
}

function printTable(list: typeof rows): void {
  const header = ['scenario', 'engine', 'wall s', 'rows/s', 'peak RSS MB', 'CPU s', 'x DuckDB', 'x plain decode'];
  const body = list.map((r) => [r.scenario, r.engine, r.wall_s.toFixed(2), Math.round(r.rows_per_s).toLocaleString('en-US'), r.peak_rss_mb.toFixed(0), r.cpu_s.toFixed(2), r.vs_duckdb.toFixed(2), r.vs_plain.toFixed(2)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((cells) => cells[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  let last = '';
  for (const [i, cells] of body.entries()) {
    if (last && list[i]!.scenario !== last) console.log('');
    last = list[i]!.scenario;
    console.log(line(cells));
  }
}

/** Uploads a partition to a local S3 endpoint with an empty `_READY`, and validates it as the Lambda does. */
async function s3Section(scenario: Scenario) {
  const dir = mkdtempSync(join(tmpdir(), 'cg-bench-s3-'));
  const emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  try {
    process.stderr.write(`S3: uploading ${scenario.label} to the local endpoint...\n`);
    const client = createS3Client({ endpoint: emulator.endpoint });
    const prefix = stagingPrefix(DEFAULT_LAYOUT, { dataset: 'orders-bench', major: 1, partition: PARTITION });
    const marker = `${prefix}${DEFAULT_LAYOUT.marker}`;
    for (let index = 0; index < fileCount(scenario.layout); index++) {
      const path = join(scenario.dir, fileName(index));
      await client.send(new PutObjectCommand({ Bucket: 'lake', Key: `${prefix}${fileName(index)}`, Body: readFileSync(path) }));
    }
    await client.send(new PutObjectCommand({ Bucket: 'lake', Key: marker, Body: new Uint8Array(0), ContentLength: 0 }));
    client.destroy();
    process.stderr.write('S3: validating through decide()...\n');
    const m = measure(['dist/bench/s3-checks.js', emulator.endpoint, 'lake', marker, CONTRACT, NOW], [0]);
    const out = JSON.parse(m.stdout) as { outcome: string; rows: number; stats: { bytes_total: number; bytes_read: number; read_requests: number }; endpoint: { bytes: number; requests: number }; decide_ms: number; violations: CommonViolation[] };
    return { scenario: scenario.label, ...out, share: out.stats.bytes_read / out.stats.bytes_total, wall_ms: Math.round(m.wallMs), peak_rss_mb: m.peakRssBytes / MB };
  } finally {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Bundles lambdas/validate/handler.ts with the construct's own bundling options (gateBundling, a
 * Node 22 target as the function's runtime), outside the project so no node_modules is in reach,
 * and times importing it in fresh processes with configuration that points at nothing reachable.
 */
async function bundleSection() {
  // Loaded here, not at the top: it pulls in aws-cdk-lib, which the rest of the bench does not need.
  const { gateBundling } = await import('../lib/deploy/gate-function.js');
  const options = gateBundling();
  const dir = mkdtempSync(join(tmpdir(), 'cg-bench-bundle-'));
  try {
    const outfile = join(dir, 'index.mjs');
    const result = await build({
      entryPoints: ['lambdas/validate/handler.ts'], bundle: true, platform: 'node', target: 'node22', outfile,
      format: options.format === 'esm' ? 'esm' : 'cjs', minify: options.minify, sourcemap: options.sourceMap, sourcesContent: options.sourcesContent,
      external: options.externalModules ?? [], mainFields: options.mainFields, ...(options.banner ? { banner: { js: options.banner } } : {}),
      metafile: true, logLevel: 'error',
    });
    mkdirSync(join(dir, 'contracts'));
    for (const name of readdirSync('contracts').filter((n) => n.endsWith('.yaml'))) copyFileSync(join('contracts', name), join(dir, 'contracts', name));
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
    const assetBytes = files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    const zippedBytes = files.reduce((n, f) => n + deflateRawSync(readFileSync(join(dir, f)), { level: 9 }).length, 0);
    const inputs = Object.values(result.metafile.outputs).find((o) => o.entryPoint)?.inputs ?? {};
    const byPackage = new Map<string, number>();
    for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
      const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
      const name = match ? match[1]! : 'project code';
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
    const env = {
      PATH: process.env.PATH ?? '', GATE_BUCKET: 'bench-unreachable', GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:000000000000:bench-unreachable',
      AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench', AWS_EC2_METADATA_DISABLED: 'true',
      AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9', AWS_ENDPOINT_URL_SNS: 'http://127.0.0.1:9',
    };
    writeFileSync(join(dir, 'baseline.mjs'), 'export const handler = () => {};\n');
    const script = (module: string) => [
      'const started = performance.now();',
      `const m = await import(${JSON.stringify(pathToFileURL(module).href)});`,
      'const ready = performance.now();',
      // Anything but the stdio pipes still open right after the import is I/O the module started.
      "const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap');",
      "process.stdout.write(JSON.stringify({ import_ms: ready - started, ready_ms: ready, handler: typeof m.handler, open }));",
    ].join('\n');
    const importOnce = (module: string, nodeOptions: string | undefined) => {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script(module)], { cwd: dir, encoding: 'utf8', env: { ...env, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) } });
      if (child.status !== 0) throw new Error(`importing ${module} failed (${child.status}):\n${child.stderr}`);
      return JSON.parse(child.stdout) as { import_ms: number; ready_ms: number; handler: string; open: string[] };
    };
    // Importing any ES module leaves the loader's own requests (a CloseReq) behind: not the bundle's I/O.
    const baseline = importOnce(join(dir, 'baseline.mjs'), undefined).open;
    const beyondBaseline = (open: string[]) => {
      const rest = [...open];
      for (const kind of baseline) {
        const at = rest.indexOf(kind);
        if (at !== -1) rest.splice(at, 1);
      }
      return rest;
    };
    const init = (nodeOptions: string | undefined) => {
      const runs = Array.from({ length: INIT_RUNS }, () => importOnce(outfile, nodeOptions));
      if (runs.some((r) => r.handler !== 'function')) throw new Error('the bundle does not export a handler function');
      return {
        node_options: nodeOptions ?? null, import_ms: runs.map((r) => round(r.import_ms, 1)), import_ms_median: median(runs.map((r) => r.import_ms)),
        ready_ms_median: median(runs.map((r) => r.ready_ms)), open_handles: [...new Set(runs.flatMap((r) => beyondBaseline(r.open)))],
      };
    };
    return {
      code_bytes: statSync(outfile).size, map_bytes: statSync(`${outfile}.map`).size, asset_bytes: assetBytes, zipped_bytes: zippedBytes,
      top_inputs: [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, bytes]) => ({ name, bytes })),
      init: { deployed: init('--enable-source-maps'), plain: init(undefined) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
