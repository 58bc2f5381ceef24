import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from '../errors.js';

/**
 * One local gate per directory. A restarted gate takes over the partition leases its
 * predecessor left (see local-gate.ts), which is only safe if that predecessor is dead: this
 * lock, a file naming the holder's process, makes sure it is. A lock whose process is gone (it
 * was killed) is stale and taken; one held by this very process (a test restarting a gate in
 * place) is too.
 */
export async function lockServeDir(dir: string): Promise<{ release(): Promise<void> }> {
  const file = join(dir, 'serve.pid');
  const held = Number((await readFile(file, 'utf8').catch(() => '')).trim());
  if (Number.isInteger(held) && held > 0 && held !== process.pid && isAlive(held)) {
    throw new GateError('bad_arguments', `another contract-gate serve (process ${held}) is using ${dir}; stop it, or give this one another --dir`, { context: { dir, pid: held } });
  }
  await writeFile(file, `${process.pid}\n`);
  return { release: () => rm(file, { force: true }) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
