import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { BUNDLE_SETTINGS, BUNDLES_DIR, HANDLER_BUNDLES, HANDLERS_DIR, handlerFile, inputsFile, SLICE_WORKER_ENTRY } from '../lib/deploy/handler-bundles.js';

/** The project root, from dist/scripts/ when compiled or scripts/ under tsx. */
const ROOT = fileURLToPath(new URL(/\/dist\/scripts\/[^/]+$/.test(import.meta.url) ? '../../' : '../', import.meta.url));

const SLICE_WORKER = 'slice-worker';

/**
 * Bundles every handler and the slice worker into `outDir` in one build: `<name>.mjs` each, and
 * the code two of them share (the AWS SDK, the checks) once, in `chunk-*.mjs` beside them, flat,
 * so `slice-worker.mjs` and `contracts/` are beside whichever chunk looks for them.
 */
export async function bundleHandlers(outDir: string, root: string = ROOT): Promise<Metafile> {
  const entries = [...HANDLER_BUNDLES.map((bundle) => ({ in: bundle.entry, out: handlerFile(bundle).replace(/\.mjs$/, '') })), { in: SLICE_WORKER_ENTRY, out: SLICE_WORKER }];
  const result = await build({
    ...BUNDLE_SETTINGS,
    mainFields: [...BUNDLE_SETTINGS.mainFields],
    banner: { js: BUNDLE_SETTINGS.banner },
    entryPoints: entries,
    outExtension: { '.js': '.mjs' },
    outdir: outDir,
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

/** The inputs of an output file and of every chunk it imports, statically or dynamically. */
function inputsOf(metafile: Metafile, output: string, seen = new Set<string>()): Set<string> {
  const inputs = new Set<string>();
  if (seen.has(output)) return inputs;
  seen.add(output);
  const file = metafile.outputs[output]!;
  for (const input of Object.keys(file.inputs)) inputs.add(input);
  for (const imported of file.imports.filter((i) => !i.external)) for (const input of inputsOf(metafile, imported.path, seen)) inputs.add(input);
  return inputs;
}

/** `npm run build`'s last step: every handler into dist/bundles/handlers/, from a clean directory. */
export async function bundleAll(root: string = ROOT): Promise<void> {
  rmSync(join(root, BUNDLES_DIR), { recursive: true, force: true });
  mkdirSync(join(root, HANDLERS_DIR), { recursive: true });
  const metafile = await bundleHandlers(join(root, HANDLERS_DIR), root);
  const output = (name: string) => `${HANDLERS_DIR}/${name}.mjs`;
  for (const bundle of HANDLER_BUNDLES) {
    const all = inputsOf(metafile, output(handlerFile(bundle).replace(/\.mjs$/, '')));
    if (bundle.sliceWorker) for (const input of inputsOf(metafile, output(SLICE_WORKER))) all.add(input);
    // Only files: a synth from the sources compares their times with the bundle's.
    const inputs = [...all].filter((input) => existsSync(join(root, input)) && statSync(join(root, input)).isFile()).sort();
    writeFileSync(join(root, inputsFile(bundle.name)), `${JSON.stringify(inputs)}\n`);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await bundleAll();
