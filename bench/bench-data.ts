import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from './build-snapshot.js';
import { partitionDir, SHAPES_ROOT, shapeDirName } from './shape-data.js';
import { SHAPES, sourceShape, type Shape } from './shape-list.js';

/**
 * The bench's generated data: made once per shape (a child process, generate-data.js), reused
 * while its tagged directory exists, removed when no shape names it any more.
 */
export function ensureData(dist: string, shapes: readonly Shape[]): void {
  for (const shape of shapes) {
    const source = sourceShape(shape);
    if (source) ensureData(dist, [source]);
    if (existsSync(partitionDir(shape))) continue;
    process.stderr.write(`generating ${shape.id} in ${partitionDir(shape)} (once; reused while it exists)\n`);
    const child = spawnSync(process.execPath, ['--max-old-space-size=4096', join(dist, 'bench', 'generate-data.js'), shape.id], { stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`generating ${shape.id} failed (${child.status ?? child.signal})`);
  }
}

/** Deletes shape directories of earlier data versions (and interrupted generations) under SHAPES_ROOT. */
export function pruneStaleData(): void {
  if (!existsSync(SHAPES_ROOT)) return;
  const current = new Set(SHAPES.map(shapeDirName));
  for (const name of readdirSync(SHAPES_ROOT)) {
    if (current.has(name)) continue;
    process.stderr.write(`removing stale bench data ${join(SHAPES_ROOT, name)}\n`);
    rmSync(join(SHAPES_ROOT, name), { recursive: true, force: true });
  }
  for (const shape of SHAPES) {
    const parent = join(SHAPES_ROOT, shapeDirName(shape));
    if (!existsSync(parent)) continue;
    for (const name of readdirSync(parent)) if (isAbandoned(name)) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

/** A generator's temporary directory whose process is gone (another bench may still be writing its own). */
function isAbandoned(name: string): boolean {
  const pid = /\.tmp-(\d+)$/.exec(name)?.[1];
  return pid !== undefined && !isAlive(Number(pid));
}

/** Reads every data file of a shape once, so its first measured run does not pay for the disk. */
export function warmPageCache(shape: Shape): void {
  const buffer = Buffer.alloc(8 * 2 ** 20);
  const dir = partitionDir(shape);
  for (const name of readdirSync(dir)) {
    const fd = openSync(join(dir, name), 'r');
    while (readSync(fd, buffer, 0, buffer.length, null) > 0);
    closeSync(fd);
  }
}

/** A shape's data files, in name order. */
export function shapeFiles(shape: Shape): string[] {
  const dir = partitionDir(shape);
  return readdirSync(dir).filter((n) => !n.startsWith('_') && !n.startsWith('.')).sort().map((n) => join(dir, n));
}
