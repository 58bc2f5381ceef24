import { readdir, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GateError } from '../errors.js';
import { listDataFiles } from '../storage/local-files.js';

/** One sample partition on disk: its folder and its data files, in name order. */
export interface SamplePartition {
  readonly dir: string;
  readonly files: readonly { readonly path: string; readonly size: number }[];
}

/** Folders that lead to partitions: `key=value` ones, and the gate's `v<major>` above them. */
const PARTITION_FOLDER = /^([A-Za-z_][A-Za-z0-9_]*=[^=]+|v\d+)$/;

/**
 * The partitions the CLI paths name: a folder without `key=value` folders in it is one; a
 * folder holding such folders (`orders/v1/` with `dt=…` inside, `dt=…` with `hr=…`) stands
 * for each of them; files are grouped by the folder they sit in, as one partition's files.
 */
export async function samplePartitions(paths: readonly string[]): Promise<SamplePartition[]> {
  const partitions: SamplePartition[] = [];
  const loose = new Map<string, { path: string; size: number }[]>();
  for (const path of paths) {
    const info = await stat(path).catch((error: unknown) => {
      throw new GateError('path_not_found', `${path}: no such file or directory`, { cause: error, context: { path } });
    });
    if (info.isDirectory()) partitions.push(...(await expandDirectory(path)));
    else loose.set(dirname(path), [...(loose.get(dirname(path)) ?? []), { path, size: info.size }]);
  }
  partitions.push(...[...loose].map(([dir, files]) => ({ dir, files })));
  const empty = partitions.find((p) => p.files.length === 0);
  if (empty) throw new GateError('bad_arguments', `${empty.dir}: no data files (names starting with _ or . are not data)`);
  return partitions;
}

async function expandDirectory(dir: string): Promise<SamplePartition[]> {
  const children = await partitionFolders(dir);
  if (children.length === 0) {
    return [{ dir, files: (await listDataFiles(dir)).map(({ path, size }) => ({ path, size })) }];
  }
  const nested = await Promise.all(children.map((child) => expandDirectory(join(dir, child))));
  return nested.flat();
}

async function partitionFolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
    throw new GateError('path_not_found', `${dir}: not a readable directory`, { cause: error, context: { dir } });
  });
  return entries.filter((e) => e.isDirectory() && PARTITION_FOLDER.test(e.name)).map((e) => e.name).sort();
}
