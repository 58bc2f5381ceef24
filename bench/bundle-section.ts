import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import type { Metafile } from 'esbuild';
import { median } from './measure-process.js';
import { bundleValidate } from './validate-bundle.js';

/**
 * The validate Lambda: bundles lambdas/validate/handler.ts with the construct's own bundling
 * options (gateBundling, a Node 22 target as the function's runtime), outside the project so no
 * node_modules is in reach, and times importing it in fresh processes with configuration that
 * points at nothing reachable.
 */
export async function bundleSection(initRuns: number) {
  const dir = mkdtempSync(join(tmpdir(), 'cg-bench-bundle-'));
  try {
    const { outfile, metafile } = await bundleValidate(dir);
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(join(dir, f)).isFile());
    return {
      code_bytes: statSync(outfile).size, map_bytes: existsSync(`${outfile}.map`) ? statSync(`${outfile}.map`).size : 0,
      asset_bytes: files.reduce((n, f) => n + statSync(join(dir, f)).size, 0),
      zipped_bytes: files.reduce((n, f) => n + deflateRawSync(readFileSync(join(dir, f)), { level: 9 }).length, 0),
      top_inputs: topInputs(metafile),
      // Deployed without NODE_OPTIONS since the bundles carry no source maps; `plain` is kept for the figures' history.
      init: { deployed: timeInit(dir, outfile, undefined, initRuns), plain: timeInit(dir, outfile, undefined, initRuns) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function topInputs(metafile: Metafile): { name: string; bytes: number }[] {
  const inputs = Object.values(metafile.outputs).find((o) => o.entryPoint)?.inputs ?? {};
  const byPackage = new Map<string, number>();
  for (const [path, { bytesInOutput }] of Object.entries(inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
    const name = match ? match[1]! : 'project code';
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  return [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([name, bytes]) => ({ name, bytes }));
}

const ENV = {
  PATH: process.env.PATH ?? '', GATE_BUCKET: 'bench-unreachable', GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:000000000000:bench-unreachable',
  AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIDBENCH', AWS_SECRET_ACCESS_KEY: 'bench', AWS_EC2_METADATA_DISABLED: 'true',
  AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9', AWS_ENDPOINT_URL_SNS: 'http://127.0.0.1:9',
};

interface ImportRun { import_ms: number; ready_ms: number; handler: string; open: string[] }

function importOnce(dir: string, module: string, nodeOptions: string | undefined): ImportRun {
  const script = [
    'const started = performance.now();',
    `const m = await import(${JSON.stringify(pathToFileURL(module).href)});`,
    'const ready = performance.now();',
    // Anything but the stdio pipes still open right after the import is I/O the module started.
    "const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap' && r !== 'PipeWrap');",
    'process.stdout.write(JSON.stringify({ import_ms: ready - started, ready_ms: ready, handler: typeof m.handler, open }));',
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { ...ENV, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) } });
  if (child.status !== 0) throw new Error(`importing ${module} failed (${child.status}):\n${child.stderr}`);
  return JSON.parse(child.stdout) as ImportRun;
}

/** Import timings of the bundle, and the handles it leaves open beyond what importing any module leaves (a CloseReq). */
function timeInit(dir: string, outfile: string, nodeOptions: string | undefined, initRuns: number) {
  writeFileSync(join(dir, 'baseline.mjs'), 'export const handler = () => {};\n');
  const baseline = importOnce(dir, join(dir, 'baseline.mjs'), undefined).open;
  const beyondBaseline = (open: string[]) => {
    const rest = [...open];
    for (const kind of baseline) {
      const at = rest.indexOf(kind);
      if (at !== -1) rest.splice(at, 1);
    }
    return rest;
  };
  const runs = Array.from({ length: initRuns }, () => importOnce(dir, outfile, nodeOptions));
  if (runs.some((r) => r.handler !== 'function')) throw new Error('the bundle does not export a handler function');
  return {
    node_options: nodeOptions ?? null, import_ms: runs.map((r) => Number(r.import_ms.toFixed(1))), import_ms_median: median(runs.map((r) => r.import_ms)),
    ready_ms_median: median(runs.map((r) => r.ready_ms)), open_handles: [...new Set(runs.flatMap((r) => beyondBaseline(r.open)))],
  };
}
