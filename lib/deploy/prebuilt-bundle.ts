import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bundleFor, HANDLERS_DIR, handlerFile, inputsFile } from './handler-bundles.js';

/** Where a handler's prebuilt code is, or why there is none to use. */
export type PrebuiltBundle =
  /** `dir` holds every handler's code (HANDLERS_DIR); `handler` is this one's, as Lambda names it. */
  | { readonly kind: 'fresh'; readonly dir: string; readonly handler: string }
  /** A clone whose sources changed since `npm run build` (or that was never built): bundle them now. */
  | { readonly kind: 'stale' }
  /** A handler the build does not know, or an installed package without its bundles. */
  | { readonly kind: 'missing'; readonly dir?: string };

/**
 * The bundle `npm run build` made of `entry`. In an installed package the sources are not there,
 * so the bundle is the code. In a clone (the entry's source beside it) a bundle older than any of
 * its inputs is stale: a handler edited since the last build must not deploy as it was.
 */
export function prebuiltBundle(projectRoot: string, entry: string): PrebuiltBundle {
  const bundle = bundleFor(entry);
  if (!bundle) return { kind: 'missing' };
  const dir = join(projectRoot, HANDLERS_DIR);
  const main = join(dir, handlerFile(bundle));
  const handler = `${bundle.name}.handler`;
  const fromSources = existsSync(join(projectRoot, entry));
  if (!existsSync(main)) return fromSources ? { kind: 'stale' } : { kind: 'missing', dir };
  if (!fromSources) return { kind: 'fresh', dir, handler };
  const inputs = readInputs(join(projectRoot, inputsFile(bundle.name)));
  if (!inputs) return { kind: 'stale' };
  const built = statSync(main).mtimeMs;
  // An input that is gone (a module deleted or moved) means the bundle was built from another tree.
  const changed = inputs.some((input) => {
    const path = join(projectRoot, input);
    return !existsSync(path) || statSync(path).mtimeMs > built;
  });
  return changed ? { kind: 'stale' } : { kind: 'fresh', dir, handler };
}

function readInputs(file: string): string[] | undefined {
  try {
    const inputs: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(inputs) && inputs.every((input) => typeof input === 'string') ? inputs : undefined;
  } catch {
    return undefined;
  }
}
