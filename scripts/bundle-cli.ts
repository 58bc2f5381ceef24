import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, SLICE_WORKER_ENTRY } from '../lib/deploy/handler-bundles.js';

/** The project root, from dist/scripts/ when compiled or scripts/ under tsx. */
const ROOT = fileURLToPath(new URL(/\/dist\/scripts\/[^/]+$/.test(import.meta.url) ? '../../' : '../', import.meta.url));

/**
 * The installed command, package.json's `bin`: two levels below dist/ as dist/lib/cli/ is, so the
 * paths the CLI finds from its own module (the demo's examples, package.json) are found the same.
 */
export const CLI_DIR = 'dist/bundles/cli';
export const CLI_FILE = `${CLI_DIR}/contract-gate.mjs`;

/**
 * The CLI's own code in a few files instead of some 400: a start resolves and reads far fewer
 * modules. Split, so each command still loads only its own chunks (run-cli.ts); its dependencies
 * stay in node_modules, where the installed package finds them as before. The slice worker and the
 * S3 emulator's child are entries of their own, `.mjs` beside the chunks that start them.
 */
export async function bundleCli(root: string = ROOT): Promise<Metafile> {
  rmSync(join(root, CLI_DIR), { recursive: true, force: true });
  mkdirSync(join(root, CLI_DIR), { recursive: true });
  const result = await build({
    platform: BUNDLE_SETTINGS.platform,
    format: BUNDLE_SETTINGS.format,
    target: BUNDLE_SETTINGS.target,
    entryPoints: [
      { in: 'lib/cli/bin.ts', out: 'contract-gate' },
      { in: SLICE_WORKER_ENTRY, out: 'slice-worker' },
      { in: 'lib/local/s3-emulator-child.ts', out: 's3-emulator-child' },
    ],
    outExtension: { '.js': '.mjs' },
    outdir: join(root, CLI_DIR),
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    packages: 'external',
    // Smaller to read and to ship; names kept, so an internal error's stack still says where.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
  });
  chmodSync(join(root, CLI_FILE), 0o755);
  return result.metafile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleCli();
