import { cpSync, existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bench runs the engines from a private copy of the build, taken right after `npm run build`:
 * the working tree is shared, and another engineer's build rewriting dist/ halfway through a
 * run would otherwise mix two versions of the engine in one table (or crash a run on a module
 * that lost an export). The copy sits inside the project, so node_modules and package.json
 * resolve as from dist/, and is removed when the bench exits.
 */
const RUNS_ROOT = join('bench', 'data', 'runs');

export function snapshotBuild(): string {
  pruneSnapshots();
  const root = join(RUNS_ROOT, String(process.pid));
  for (const part of ['lib', 'bench', 'bundles/cli']) cpSync(join('dist', part), join(root, 'dist', part), { recursive: true });
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  return join(root, 'dist');
}

/** Copies left by benches that were killed (their process is gone). */
function pruneSnapshots(): void {
  if (!existsSync(RUNS_ROOT)) return;
  for (const name of readdirSync(RUNS_ROOT)) if (!isAlive(Number(name))) rmSync(join(RUNS_ROOT, name), { recursive: true, force: true });
}

export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
