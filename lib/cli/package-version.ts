import { readFile } from 'node:fs/promises';

const PACKAGE_NAME = 'contract-gate';

/**
 * The version in contract-gate's package.json. The module runs from lib/cli (tsx), dist/lib/cli
 * (built) or node_modules/contract-gate/dist/lib/cli (installed), so the file is looked for in
 * each directory upwards, and one of another package (an app that installed this) is skipped.
 */
export async function packageVersion(from: URL = new URL('.', import.meta.url)): Promise<string> {
  for (let dir = from; ; dir = new URL('..', dir)) {
    const version = await versionIn(new URL('package.json', dir));
    if (version !== undefined) return version;
    if (new URL('..', dir).href === dir.href) break;
  }
  throw new Error(`no package.json of ${PACKAGE_NAME} above ${from.pathname}: reinstall the package`);
}

async function versionIn(file: URL): Promise<string | undefined> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const json = JSON.parse(text) as { name?: unknown; version?: unknown };
    return json.name === PACKAGE_NAME && typeof json.version === 'string' ? json.version : undefined;
  } catch {
    return undefined;
  }
}
