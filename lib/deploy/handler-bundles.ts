/**
 * The gate's Lambda handlers as `npm run build` bundles them (scripts/bundle-handlers.ts) into
 * `dist/bundles/handlers/<name>.mjs`, and as GateFunction finds them again by entry. One table, so
 * a handler added to the stack without a prebuilt bundle is caught by the bundle tests, not by a
 * user whose synth suddenly needs esbuild.
 */
export interface HandlerBundle {
  /** The file `<name>.mjs` in `dist/bundles/handlers/`, and the Lambda handler `<name>.handler`. */
  readonly name: string;
  /** The handler module, relative to the project root. */
  readonly entry: string;
  /** Whether it starts the worker threads' entry (lib/parallel/slice-worker.ts), `slice-worker.mjs` beside it. */
  readonly sliceWorker: boolean;
}

export const HANDLER_BUNDLES: readonly HandlerBundle[] = [
  { name: 'validate', entry: 'lambdas/validate/handler.ts', sliceWorker: true },
  { name: 'probe', entry: 'lambdas/probe/handler.ts', sliceWorker: false },
  { name: 'reconcile', entry: 'lambdas/reconcile/handler.ts', sliceWorker: false },
  { name: 'fanout-plan', entry: 'lambdas/fanout/plan.ts', sliceWorker: false },
  { name: 'fanout-map-file', entry: 'lambdas/fanout/map-file.ts', sliceWorker: false },
  { name: 'fanout-reduce-shard', entry: 'lambdas/fanout/reduce-shard.ts', sliceWorker: false },
  { name: 'fanout-decide', entry: 'lambdas/fanout/decide.ts', sliceWorker: false },
];

export const SLICE_WORKER_ENTRY = 'lib/parallel/slice-worker.ts';

/** Where the bundles are, relative to the project root (the package root when installed). */
export const BUNDLES_DIR = 'dist/bundles';

/**
 * The handlers' code: one build of every handler and the slice worker with the code they share
 * in chunks beside them (`chunk-*.mjs`), all in this one directory, which is every function's
 * asset (CDK uploads it once). Seven bundles each carrying the AWS SDK made a 6 MB package.
 */
export const HANDLERS_DIR = `${BUNDLES_DIR}/handlers`;

/** The handler's file in HANDLERS_DIR. */
export const handlerFile = (bundle: HandlerBundle): string => `${bundle.name}.mjs`;

/**
 * esbuild's inputs of each handler (its chunks' and, where it has one, its worker's included),
 * beside (not inside) HANDLERS_DIR: the asset carries only what Lambda runs, and a synth from the
 * sources can tell a stale bundle from a fresh one.
 */
export const inputsFile = (name: string): string => `${BUNDLES_DIR}/${name}.inputs.json`;

export function bundleFor(entry: string): HandlerBundle | undefined {
  return HANDLER_BUNDLES.find((bundle) => bundle.entry === entry);
}

/** ESM output has no `require`; bundled CommonJS dependencies still call it. */
export const REQUIRE_BANNER = "import { createRequire } from 'module'; const require = createRequire(import.meta.url);";

/**
 * The esbuild settings every handler is bundled with, prebuilt or by NodejsFunction: Node 22 as
 * the functions' runtime, minified, and everything bundled, the pinned AWS SDK the gate is tested
 * with included rather than whichever one the runtime carries. No source maps: they were twice
 * the code's size, and `--enable-source-maps` added about a tenth to the validate handler's cold
 * import (README, "The package"); a GateError's message says what failed without a stack.
 */
export const BUNDLE_SETTINGS = {
  platform: 'node',
  format: 'esm',
  target: 'node22',
  mainFields: ['module', 'main'],
  minify: true,
  sourcemap: false,
  sourcesContent: false,
  banner: REQUIRE_BANNER,
} as const;
