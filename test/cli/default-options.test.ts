import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { SILENT_ODCS } from './silent-odcs.js';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

describe('--default-notify and --default-format', () => {
  const file = join(mkdtempSync(join(tmpdir(), 'cg-defaults-')), 'orders.v1.yaml');
  writeFileSync(file, SILENT_ODCS);

  it('fill what an ODCS contract leaves out, each use a warning', async () => {
    expect((await run(['lint', file])).code).toBe(2);
    const { code, stdout, stderr } = await run(['lint', file, '--default-notify', 'oncall@example.com, lead@example.com', '--default-format', 'csv']);
    expect(code).toBe(0);
    expect(stdout).toContain('orders 1.0.0 (2 warnings)');
    expect(stderr).toContain('using the default [oncall@example.com, lead@example.com] supplied by the caller');
    expect(stderr).toContain('using the default csv supplied by the caller');
  });

  it('are refused with the expected values when malformed, by every command that takes them', async () => {
    for (const command of [['lint', file], ['validate', '--contract', file, 'x'], ['check-compat', 'contracts']]) {
      expect(await run([...command, '--default-format', 'xml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--default-format must be one of parquet, csv, jsonl, not "xml"') });
      expect(await run([...command, '--default-notify', ' , '])).toMatchObject({ code: 2, stderr: expect.stringContaining('--default-notify must list at least one address') });
    }
  });
});
