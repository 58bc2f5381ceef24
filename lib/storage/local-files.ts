import { open, readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { PartitionFile } from '../checks/validate-partition.js';
import { GateError } from '../errors.js';
import type { ByteSource } from '../formats/byte-source.js';

/**
 * Expands CLI paths into the files of a partition: a file stands for itself, a directory for
 * every file below it whose name does not start with `_` or `.` (markers and hidden files).
 * Every other file is data, so a stray file is reported as unreadable rather than skipped.
 */
export async function localPartitionFiles(paths: readonly string[]): Promise<PartitionFile[]> {
  const files: PartitionFile[] = [];
  for (const path of paths) {
    const info = await stat(path).catch((error: unknown) => {
      throw new GateError('path_not_found', `${path}: no such file or directory`, { cause: error, context: { path } });
    });
    const found = info.isDirectory() ? await listDirectory(path) : [{ path, size: info.size }];
    files.push(...found.map(({ path: file, size }) => localPartitionFile(file, size)));
  }
  return files;
}

/** The data files below a directory, in name order, with their paths relative to it. */
export async function listDataFiles(dir: string): Promise<{ path: string; relative: string; size: number }[]> {
  const found = await listDirectory(dir).catch((error: unknown) => {
    throw new GateError('path_not_found', `${dir}: not a readable directory`, { cause: error, context: { dir } });
  });
  return found.map((file) => ({ ...file, relative: relative(dir, file.path).split(sep).join('/') }));
}

async function listDirectory(dir: string): Promise<{ path: string; size: number }[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: { path: string; size: number }[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name.startsWith('_') || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listDirectory(path)));
    else if (entry.isFile()) found.push({ path, size: (await stat(path)).size });
  }
  return found;
}

export function localPartitionFile(path: string, byteLength: number): PartitionFile {
  return {
    path,
    byteLength,
    async open() {
      const handle = await open(path, 'r');
      const read = async (start: number, end: number, target: Uint8Array, at: number): Promise<void> => {
        const length = Math.max(0, Math.min(end, byteLength) - start);
        let done = 0;
        try {
          while (done < length) {
            const { bytesRead } = await handle.read(target, at + done, length - done, start + done);
            if (bytesRead === 0) break;
            done += bytesRead;
          }
        } catch (error) {
          throw new GateError('storage_failed', `${path}: cannot read bytes ${start}-${end}`, { cause: error, context: { path } });
        }
        // A file cut short since it was listed reads as zeros, as a fresh buffer would.
        target.fill(0, at + done, at + length);
      };
      const source: ByteSource = {
        byteLength,
        async slice(start, end = byteLength) {
          // Not zeroed first: every byte is read over (or zeroed, past the file's end).
          const buffer = Buffer.allocUnsafeSlow(Math.max(0, Math.min(end, byteLength) - start));
          await read(start, end, buffer, 0);
          return buffer.buffer;
        },
        readInto: read,
      };
      return { source, close: () => handle.close() };
    },
  };
}
