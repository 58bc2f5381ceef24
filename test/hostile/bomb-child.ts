import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** What validate-child.ts printed of one file. */
export interface ChildVerdict {
  readonly rules: Record<string, number>;
  readonly unreadable?: string;
  readonly maxRssMb: number;
}

const CHILD = fileURLToPath(new URL('./validate-child.ts', import.meta.url));

/**
 * Validates `bytes` in a Node process of its own (through tsx), so its peak RSS is the file's
 * alone: array buffers live outside any heap limit, and a worker's would be the parent's.
 */
export async function validateInChild(bytes: Uint8Array, columns: readonly string[]): Promise<ChildVerdict> {
  const dir = await mkdtemp(join(tmpdir(), 'bomb-'));
  try {
    const path = join(dir, 'bomb.parquet');
    await writeFile(path, bytes);
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', CHILD, path, ...columns], { maxBuffer: 2 ** 20, timeout: 120_000 });
    return JSON.parse(stdout.trim().split('\n').at(-1)!) as ChildVerdict;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
