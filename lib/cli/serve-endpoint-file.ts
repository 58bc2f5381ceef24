import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * `<dir>/serve.json`: where a running `serve` listens, so a command given only the directory
 * (`probe` on the default lake) can reach the lake through it instead of the AWS default. It
 * names the process: a file left by a killed serve is recognised by its dead process.
 */
export interface ServeEndpoint {
  readonly pid: number;
  readonly endpoint: string;
  readonly bucket: string;
}

const FILE = 'serve.json';

export async function writeServeEndpoint(dir: string, endpoint: Omit<ServeEndpoint, 'pid'>): Promise<{ remove(): Promise<void> }> {
  const file = join(dir, FILE);
  // Written aside and renamed: a reader never sees a half-written file.
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ pid: process.pid, ...endpoint })}\n`);
  await rename(temp, file);
  return { remove: () => rm(file, { force: true }) };
}

/** The endpoint of the serve running on `dir`, or undefined when none is (or it left no file). */
export async function readServeEndpoint(dir: string): Promise<ServeEndpoint | undefined> {
  const text = await readFile(join(dir, FILE), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as Partial<ServeEndpoint>;
    if (typeof parsed.pid !== 'number' || typeof parsed.endpoint !== 'string' || typeof parsed.bucket !== 'string') return undefined;
    return isAlive(parsed.pid) ? (parsed as ServeEndpoint) : undefined;
  } catch {
    return undefined;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
