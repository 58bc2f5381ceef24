import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';

/** Runs one CLI invocation in-process, as a shell would, and keeps what it printed. */
export async function runCaptured(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}
