import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { HANDLER_BUNDLES, HANDLERS_DIR, handlerFile } from '../../lib/deploy/handler-bundles.js';
import { EMULATOR_PACKAGE, EMULATOR_VERSION } from '../../lib/local/emulator-package.js';
import { CONSUMER_TS, RUN_MJS } from './consumer-source.js';
import { removeScratchAppWhenPassed, scratchApp, scratchTsconfig, type ScratchApp } from './scratch-app.js';

// Packing and installing on a loaded machine: minutes, not seconds. No timing is asserted.
const SLOW = 900_000;
const TSC = join(PROJECT_ROOT, 'node_modules/.bin/tsc');

let app: ScratchApp;

beforeAll(async () => {
  app = await scratchApp();
}, SLOW);
removeScratchAppWhenPassed(() => app);

const installed = () => join(app.dir, 'node_modules/contract-gate');
const TARBALL_LIMIT = 2_000_000;

/**
 * The emulator and every package it alone brings: its dependencies, as the repository's lock file
 * resolves them, that the lock file installs for development only.
 */
function emulatorTree(): Set<string> {
  const lock = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; dependencies?: Record<string, string> }> };
  const seen = new Set<string>();
  for (const queue = [EMULATOR_PACKAGE]; queue.length > 0;) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...Object.keys(lock.packages[`node_modules/${name}`]?.dependencies ?? {}));
  }
  return new Set([...seen].filter((name) => name === EMULATOR_PACKAGE || lock.packages[`node_modules/${name}`]?.dev === true));
}

describe('the package, installed from its tarball into an app outside the repository', () => {
  it('ships the built code, its declarations and bundles, the schema, README and LICENSE, and nothing else', () => {
    const files = app.packed.files;
    expect(files.filter((f) => !/^(dist\/(lib|lambdas|bundles)\/|contracts\/contract\.schema\.json$|README\.md$|LICENSE$|package\.json$)/.test(f))).toEqual([]);
    for (const entry of ['dist/lib/index', 'dist/lib/deploy/index', 'dist/lambdas/index']) {
      expect(files).toContain(`${entry}.js`);
      expect(files).toContain(`${entry}.d.ts`);
    }
    for (const bundle of HANDLER_BUNDLES) expect(files).toContain(`${HANDLERS_DIR}/${handlerFile(bundle)}`);
    expect(files).toContain(`${HANDLERS_DIR}/slice-worker.mjs`);
    expect(files.filter((f) => /\.map$|inputs\.json$|\/deploy\/(gate-)?app\./.test(f))).toEqual([]);
  });

  it('packs into a tarball of at most 2 MB', () => {
    expect(app.packed.size).toBeLessThanOrEqual(TARBALL_LIMIT);
  });

  it('installs no S3 emulator: the runtime tree holds neither it nor any package it alone brings', async () => {
    const { stdout } = await app.exec('npm', ['ls', '--omit=dev', '--all', '--parseable']);
    // Not what aws-cdk-lib, the app's own dependency, bundles inside itself (mime-types, among others).
    const lines = stdout.split('\n').filter((line) => line.includes('/node_modules/') && !line.includes('/node_modules/aws-cdk-lib/node_modules/'));
    const installedNames = new Set(lines.map((line) => line.slice(line.lastIndexOf('/node_modules/') + 14)));
    expect(installedNames).toContain('contract-gate');
    const emulator = emulatorTree();
    expect(emulator.size).toBeGreaterThan(50);
    expect([...installedNames].filter((name) => emulator.has(name))).toEqual([]);
  });

  it('answers serve without the emulator installed with what to install, and leaves no lake directory', async () => {
    const dir = join(app.dir, 'lake');
    const serve = app.exec(join(app.dir, 'node_modules/.bin/contract-gate'), ['serve', '--dir', dir, '--port', '0'], { timeoutMs: 120_000 });
    await expect(serve).rejects.toThrow(`needs a local S3 endpoint, and so ${EMULATOR_PACKAGE}, an optional peer dependency of contract-gate that is not installed. Install it beside contract-gate: npm install --save-dev ${EMULATOR_PACKAGE}@${EMULATOR_VERSION}`);
    expect(existsSync(dir)).toBe(false);
  }, SLOW);

  it('has none of the repository\'s dev dependencies installed beside it', () => {
    for (const name of ['esbuild', 'cdk-nag', 'tsx', 'typescript', 'vitest', 'aws-cdk']) expect(existsSync(join(app.dir, 'node_modules', name)), name).toBe(false);
  });

  it('imports, at run time and in its declarations, only node built-ins, its dependencies and its peer dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(installed(), 'package.json'), 'utf8')) as { dependencies: Record<string, string>; peerDependencies: Record<string, string> };
    const allowed = new Set([...Object.keys(manifest.dependencies), ...Object.keys(manifest.peerDependencies)]);
    const strays: string[] = [];
    for (const dir of ['dist/lib', 'dist/lambdas']) {
      for (const file of readdirSync(join(installed(), dir), { recursive: true, encoding: 'utf8' }).filter((f) => /\.(js|d\.ts)$/.test(f))) {
        const text = readFileSync(join(installed(), dir, file), 'utf8');
        // Import and export statements (not text that merely contains `from '...'`), and dynamic imports.
        for (const [, specifier] of text.matchAll(/(?:^\s*(?:import|export)\b[^'"]*?\bfrom\s*|^\s*import\s*|\bimport\(\s*)['"]([^'"]+)['"]/gm)) {
          if (specifier!.startsWith('.') || specifier!.startsWith('node:') || builtinModules.includes(specifier!)) continue;
          const name = specifier!.startsWith('@') ? specifier!.split('/').slice(0, 2).join('/') : specifier!.split('/')[0]!;
          if (!allowed.has(name)) strays.push(`${dir}/${file}: ${specifier}`);
        }
      }
    }
    expect(strays).toEqual([]);
  });

  it('type-checks a file importing the API, the construct and the handlers, validates a partition and synthesizes a ContractGate', async () => {
    writeFileSync(join(app.dir, 'consumer.ts'), CONSUMER_TS);
    writeFileSync(join(app.dir, 'tsconfig.json'), `${JSON.stringify(scratchTsconfig('consumer.ts'), null, 2)}\n`);
    writeFileSync(join(app.dir, 'run.mjs'), RUN_MJS);
    await app.exec(process.execPath, [TSC, '-p', join(app.dir, 'tsconfig.json')]);
    const outdir = join(app.dir, 'cdk.out');
    const { stdout } = await app.exec(process.execPath, ['run.mjs', join(PROJECT_ROOT, 'contracts/orders.v1.yaml'), join(PROJECT_ROOT, 'contracts/examples/orders/good/dt=2026-11-29'), '2026-11-30T05:00:00Z', outdir]);
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { status: string; rows: number; violations: number; checks: number; diff: number; functions: { id: string; code: string }[]; resources: number };
    expect(result).toMatchObject({ status: 'pass', rows: 1200, violations: 0, diff: 0 });
    expect(result.checks).toBeGreaterThan(0);
    // The registry by default: validate, probe and the subscription reconciler, each its prebuilt bundle as it is in the package.
    expect(result.functions.length).toBeGreaterThanOrEqual(3);
    for (const fn of result.functions) {
      const asset = join(outdir, fn.code);
      const name = /Validate/.test(fn.id) ? 'validate' : /Probe/.test(fn.id) ? 'probe' : /Reconcile/.test(fn.id) ? 'reconcile' : undefined;
      if (name) expect(readFileSync(join(asset, `${name}.mjs`)), fn.id).toEqual(readFileSync(join(installed(), HANDLERS_DIR, `${name}.mjs`)));
      else expect(readdirSync(asset).some((f) => f.endsWith('.mjs')), fn.id).toBe(true);
    }
    // Nothing of the package was written to while synthesizing (no contracts copied into dist/).
    expect(readdirSync(join(installed(), HANDLERS_DIR)).filter((f) => !f.endsWith('.mjs'))).toEqual([]);
  }, SLOW);

  it('keeps the bin working', async () => {
    const { stdout } = await app.exec(join(app.dir, 'node_modules/.bin/contract-gate'), ['validate', '--contract', join(PROJECT_ROOT, 'contracts/orders.v1.yaml'), join(PROJECT_ROOT, 'contracts/examples/orders/good/dt=2026-11-29'), '--now', '2026-11-30T05:00:00Z', '--format', 'json']);
    expect((JSON.parse(stdout) as { status: string }).status).toBe('pass');
  }, SLOW);
});
