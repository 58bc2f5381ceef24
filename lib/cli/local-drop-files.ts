import { readFile } from 'node:fs/promises';
import type { FileToDrop } from '../gate/drop-partition.js';
import { listDataFiles } from '../storage/local-files.js';

/** The data files of a local partition directory, in name order, as dropPartition uploads them. */
export async function localDropFiles(dir: string): Promise<FileToDrop[]> {
  const files = await listDataFiles(dir);
  return files.map((f) => ({ relative: f.relative, size: f.size, read: () => readFile(f.path) }));
}
