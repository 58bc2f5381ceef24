import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, BUNDLES_DIR, HANDLER_BUNDLES, inputsFile, SLICE_WORKER_ENTRY, type HandlerBundle } from '../lib/deploy/handler-bundles.js';

/** The project root, from dist/scripts/ when compiled or scripts/ under tsx. */
const ROOT = fileURLToPath(new URL(/\/dist\/scripts\/[^/]+$/.test(import.meta.url) ? '../../' : '../', import.meta.url));

/**
 * Bundles one handler into `outDir` as GateFunction deploys it: `index.mjs` and its source map,
 * and `slice-worker.mjs` beside it where the handler checks with worker threads. Returns
 * esbuild's inputs of both.
 */
export async function bundleHandler(bundle: HandlerBundle, outDir: string, root: string = ROOT): Promise<Metafile> {
  const entries = [{ in: bundle.entry, out: 'index' }, ...(bundle.sliceWorker ? [{ in: SLICE_WORKER_ENTRY, out: 'slice-worker' }] : [])];
  const result = await build({
    ...BUNDLE_SETTINGS,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    entryPoints: entries,
    outExtension: { '.js': '.mjs' },
    outdir: outDir,
    absWorkingDir: root,
    bundle: true,
    // No code splitting: the worker entry stands alone, as a Lambda asset's files each must.
    splitting: false,
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

/** `npm run build`'s last step: every handler into dist/bundles/<name>/, from a clean directory. */
export async function bundleAll(root: string = ROOT): Promise<void> {
  rmSync(join(root, BUNDLES_DIR), { recursive: true, force: true });
  mkdirSync(join(root, BUNDLES_DIR), { recursive: true });
  await Promise.all(HANDLER_BUNDLES.map(async (bundle) => {
    const metafile = await bundleHandler(bundle, join(root, BUNDLES_DIR, bundle.name), root);
    // Only files: a synth from the sources compares their times with the bundle's.
    const inputs = Object.keys(metafile.inputs).filter((input) => existsSync(join(root, input)) && statSync(join(root, input)).isFile()).sort();
    writeFileSync(join(root, inputsFile(bundle.name)), `${JSON.stringify(inputs)}\n`);
  }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleAll();
