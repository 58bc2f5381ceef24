import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';

const run = promisify(execFile);

/** A CDK app outside the repository with contract-gate installed from its packed tarball. */
export interface ScratchApp {
  readonly dir: string;
  readonly tarball: string;
  /** What `npm pack` put in the tarball: paths, and its packed and unpacked bytes. */
  readonly packed: { readonly files: readonly string[]; readonly size: number; readonly unpackedSize: number };
  /** Runs a command in the app, quietly: its output is returned, and only shown when it fails. */
  exec(file: string, args: readonly string[], options?: { readonly timeoutMs?: number }): Promise<{ stdout: string; stderr: string }>;
}

/**
 * npm run inside `npm test` inherits `npm_package_*` and `npm_lifecycle_*` describing this
 * repository; the scratch app's npm must see only itself (the user's npm config stays).
 */
function outsideEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_(package|lifecycle)_|^INIT_CWD$/.test(name)));
}

async function exec(cwd: string, file: string, args: readonly string[], timeoutMs = 600_000): Promise<{ stdout: string; stderr: string }> {
  try {
    return await run(file, [...args], { cwd, env: outsideEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${file} ${args.join(' ')} failed in ${cwd}:\n${stderr ?? ''}\n${stdout ?? ''}`, { cause: error });
  }
}

/** The versions this repository builds with: the scratch app installs exactly these beside the tarball. */
export function pinnedPeers(): Record<'aws-cdk-lib' | 'constructs', string> {
  const manifest = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> };
  return { 'aws-cdk-lib': manifest.devDependencies['aws-cdk-lib']!, constructs: manifest.devDependencies.constructs! };
}

/**
 * Packs the repository as `npm publish` would and installs the tarball into a new app in the
 * system temp directory, with nothing of the repository's but the tarball: no dev dependency,
 * no node_modules of the repository in reach. `--ignore-scripts` on the pack: the tarball is of
 * the build `npm test` just made, and rebuilding dist/ here would pull it from under the
 * other tests. A failed install (no registry, no cache) fails the test and says so.
 */
export async function scratchApp(): Promise<ScratchApp> {
  if (!existsSync(join(PROJECT_ROOT, 'dist/bundles/handlers/validate.mjs'))) {
    throw new Error('dist/ has no prebuilt bundles: run `npm run build` (npm test does) before the package test');
  }
  const root = mkdtempSync(join(tmpdir(), 'cg-consumer-'));
  const packed = await exec(PROJECT_ROOT, 'npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root]);
  const pack = (JSON.parse(packed.stdout) as { filename: string; size: number; unpackedSize: number; files: { path: string }[] }[])[0]!;
  const tarball = join(root, pack.filename);
  const dir = join(root, 'app');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'scratch-consumer', private: true, type: 'module' }, null, 2)}\n`);
  const peers = pinnedPeers();
  try {
    await exec(dir, 'npm', ['install', tarball, `aws-cdk-lib@${peers['aws-cdk-lib']}`, `constructs@${peers.constructs}`, '--no-audit', '--no-fund', '--prefer-offline']);
  } catch (error) {
    throw new Error(`could not install the packed tarball into the scratch app: the npm registry (or a warm npm cache) is needed\n${(error as Error).message}`, { cause: error });
  }
  return { dir, tarball, packed: { files: pack.files.map((f) => f.path), size: pack.size, unpackedSize: pack.unpackedSize }, exec: (file, args, options) => exec(dir, file, args, options?.timeoutMs) };
}

/** The tsconfig a scratch app type-checks `file` with: strict, no @types (only what it installed). */
export function scratchTsconfig(file: string): object {
  return {
    compilerOptions: { target: 'ES2022', lib: ['ES2023'], module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: [], skipLibCheck: true, outDir: 'out' },
    files: [file],
  };
}

/**
 * Removes the scratch app after the file's tests when all passed; kept to look at when one failed
 * (it holds a whole aws-cdk-lib). Call at the top level of a test file.
 */
export function removeScratchAppWhenPassed(app: () => ScratchApp | undefined): void {
  let failed = false;
  afterEach(({ task }) => {
    failed ||= task.result?.state === 'fail';
  });
  afterAll(() => {
    const made = app();
    if (made && !failed) rmSync(dirname(made.dir), { recursive: true, force: true });
  });
}
