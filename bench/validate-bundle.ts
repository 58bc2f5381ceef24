import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';

/**
 * lambdas/validate/handler.ts bundled into `dir` as ValidateFunction deploys it: the construct's
 * own esbuild options (gateBundling, a Node 22 target as the function's runtime), then its own
 * afterBundling commands (the contracts, the slice worker).
 */
export async function bundleValidate(dir: string): Promise<{ outfile: string; metafile: Metafile }> {
  // Loaded here: it pulls in aws-cdk-lib, which the rest of the bench does not need.
  const { gateBundling, PROJECT_ROOT } = await import('../lib/deploy/gate-function.js');
  const options = gateBundling({ sliceWorker: true, projectRoot: PROJECT_ROOT });
  const outfile = join(dir, 'index.mjs');
  const result = await build({
    entryPoints: ['lambdas/validate/handler.ts'], bundle: true, platform: 'node', target: 'node22', outfile,
    format: options.format === 'esm' ? 'esm' : 'cjs', minify: options.minify, sourcemap: options.sourceMap, sourcesContent: options.sourcesContent,
    external: options.externalModules ?? [], mainFields: options.mainFields, ...(options.banner ? { banner: { js: options.banner } } : {}),
    metafile: true, logLevel: 'error',
  });
  for (const command of options.commandHooks?.afterBundling(PROJECT_ROOT.replace(/\/$/, ''), dir) ?? []) execSync(command, { stdio: 'inherit' });
  return { outfile, metafile: result.metafile };
}
