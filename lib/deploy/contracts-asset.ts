import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';

/**
 * A prebuilt bundle with the contracts beside it, as the asset of a function reading bundled
 * contracts: built in a directory of its own under `stagingRoot` (the app's output directory),
 * never in the bundle's, so a synth leaves dist/ (or the installed package) as it found it.
 * The directory is named by what it holds: synths of the same code and contracts share one, and
 * two gates with different contracts in one app never do.
 */
export function bundleWithContracts(bundleDir: string, contractFiles: readonly string[], stagingRoot: string): string {
  const code = filesOf(bundleDir);
  const hash = createHash('sha256');
  for (const name of code) hash.update(`${name}\0`).update(readFileSync(join(bundleDir, name))).update('\0');
  for (const file of contractFiles) hash.update(`contracts/${basename(file)}\0`).update(readFileSync(file)).update('\0');
  const target = join(stagingRoot, hash.digest('hex').slice(0, 32));
  if (existsSync(target)) return target;
  mkdirSync(stagingRoot, { recursive: true });
  // Written aside, then renamed into place: a concurrent synth sees the whole directory or none.
  const partial = mkdtempSync(join(stagingRoot, '.partial-'));
  for (const name of code) copyFileSync(join(bundleDir, name), join(partial, name));
  mkdirSync(join(partial, 'contracts'));
  for (const file of contractFiles) copyFileSync(file, join(partial, 'contracts', basename(file)));
  try {
    renameSync(partial, target);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(target)) throw error;
  }
  return target;
}

/**
 * The contract files to bundle: `files` as given, else the `*.yaml` and `*.yml` directly in `dir`, as
 * loadContractDirectory reads them from `contracts/` beside the handler. Two files of one name would overwrite each other there.
 */
export function contractFilesOf(dir: string, files?: readonly string[]): string[] {
  const found = files ? [...files] : existsSync(dir) ? filesOf(dir).filter((name) => /\.ya?ml$/.test(name)).map((name) => join(dir, name)) : [];
  const names = found.map((file) => basename(file));
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice) throw new Error(`contract-gate: two bundled contract files are named ${twice}; the functions read them from one directory`);
  return found;
}

/** The plain files of a directory, by name; a bundle has no sub-directories. */
function filesOf(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
}
