import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { serveCommand } from '../../lib/cli/serve-command.js';

/** An ODCS contract that names no one to page and no file format: the gate cannot load it alone. */
const SILENT_ODCS = [
  'apiVersion: v3.1.0', 'kind: DataContract', 'id: orders-v1', 'name: orders', 'version: 1.0.0', 'status: active',
  'team:', '  name: orders-platform', '  members:', '    - username: oncall',
  'servers:', '  - server: prod', '    type: s3', '    location: s3://lake/orders/dt={ds}/',
  'schema:', '  - name: orders', '    properties:', '      - name: order_id', '        logicalType: string', '',
].join('\n');
const DEFAULTS = ['--default-notify', 'oncall@example.com', '--default-format', 'parquet'];

function contractsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cg-silent-'));
  writeFileSync(join(dir, 'orders.v1.yaml'), SILENT_ODCS);
  return dir;
}

function capture() {
  const out = { stdout: '', stderr: '' };
  const io: CliIo = { stdout: (t) => void (out.stdout += t), stderr: (t) => void (out.stderr += t), isTTY: false };
  return { io, out };
}

describe('serve and probe with --default-notify / --default-format', () => {
  it('serve loads a contract without operational fields only with the defaults, and says it used them', async () => {
    const contracts = contractsDir();
    const stopped = AbortSignal.abort(); // stop once started
    const bare = capture();
    await expect(serveCommand(['--port', '0', '--dir', mkdtempSync(join(tmpdir(), 'cg-serve-')), '--contracts', contracts], bare.io, stopped)).rejects.toThrow(/the local registry refused contracts in [\s\S]*the contract does not load/);
    const given = capture();
    expect(await serveCommand(['--port', '0', '--dir', mkdtempSync(join(tmpdir(), 'cg-serve-')), '--contracts', contracts, ...DEFAULTS], given.io, stopped)).toBe(0);
    expect(given.out.stdout).toContain('using the default [oncall@example.com] supplied by the caller');
  });

  it('probe passes them to the contract loader', async () => {
    const contracts = contractsDir();
    const lake = mkdtempSync(join(tmpdir(), 'cg-probe-lake-'));
    mkdirSync(join(lake, 'buckets', 'lake'), { recursive: true });
    const bare = capture();
    expect(await runCli(['probe', '--contracts', contracts, '--dir', lake], bare.io)).toBe(2);
    expect(bare.out.stderr).toContain(`invalid contracts in ${contracts}`);
    const given = capture();
    expect(await runCli(['probe', '--contracts', contracts, '--dir', lake, ...DEFAULTS, '--dry-run'], given.io)).toBe(0);
    expect(given.out.stderr).toContain('using the default parquet supplied by the caller');
    expect(await runCli(['probe', '--contracts', contracts, '--dir', lake, '--default-format', 'xml'], capture().io)).toBe(2);
  });
});
