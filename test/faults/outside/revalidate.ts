import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { runCli } from '../../../lib/cli/run-cli.js';
import type { FetchedObject } from './lake-client.js';

export interface Revalidation {
  readonly exit: number;
  /** `rule column ×count`, or what went wrong. */
  readonly summary: string;
}

/**
 * `contract-gate validate --contract <file> <dir> --format json` on a download of the published
 * partition, through the CLI's own entry (runCli, in this process: one node start per trial would
 * cost more than the trial). Exit 0 is a pass.
 */
export async function revalidate(contract: string, scratch: string, partition: string, files: ReadonlyMap<string, FetchedObject>): Promise<Revalidation> {
  const dir = join(scratch, partition);
  await rm(dir, { recursive: true, force: true });
  for (const [relative, object] of files) {
    await mkdir(dirname(join(dir, relative)), { recursive: true });
    await writeFile(join(dir, relative), object.bytes);
  }
  let stdout = '';
  let stderr = '';
  try {
    const exit = await runCli(['validate', '--contract', contract, '--format', 'json', dir], { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false });
    return { exit, summary: exit === 0 ? 'pass' : summarise(stdout, stderr) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function summarise(stdout: string, stderr: string): string {
  try {
    const report = JSON.parse(stdout) as { violations?: { rule: string; column?: string | null; count: number }[] };
    return (report.violations ?? []).map((v) => `${v.rule}${v.column ? ` ${v.column}` : ''} ×${v.count}`).join(', ') || 'fail without violations';
  } catch {
    return `cannot run: ${stderr.trim().slice(0, 200)}`;
  }
}
