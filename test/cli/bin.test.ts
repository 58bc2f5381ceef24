import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const BIN = (JSON.parse(readFileSync('package.json', 'utf8')) as { bin: Record<string, string> }).bin['contract-gate']!;

/**
 * The installed command as npm links it: the file package.json names, run by its own shebang (npm
 * test builds dist/ first). Not through npx, whose cache of the project breaks when several
 * processes install into it at once.
 */
function contractGate(...args: string[]) {
  return spawnSync(BIN, args, { encoding: 'utf8' });
}

describe('the contract-gate command', () => {
  it('exits 1 with a text verdict for the bad example and 0 for the good one', () => {
    const bad = contractGate('validate', '--contract', 'contracts/orders.v1.yaml', 'contracts/examples/orders/bad', '--now', '2026-11-30T05:00:00Z');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^FAIL orders 1\.2\.0: 2 files, 1,200 rows, 7 violations/);
    const good = contractGate('validate', '--contract', 'contracts/orders.v1.yaml', 'contracts/examples/orders/good', '--now', '2026-11-30T05:00:00Z', '--format', 'json');
    expect(good.status).toBe(0);
    expect(JSON.parse(good.stdout).status).toBe('pass');
  });

  it('checks with worker threads, whose entry sits beside the command', () => {
    const result = contractGate('validate', '--contract', 'contracts/orders.v1.yaml', 'contracts/examples/orders/bad', '--now', '2026-11-30T05:00:00Z', '--workers', '2');
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(/^FAIL orders 1\.2\.0: 2 files, 1,200 rows, 7 violations/);
  });

  it('serves the demo through the S3 emulator, whose child process sits beside the command, and stops on SIGTERM', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-bin-serve-'));
    const serve = spawn(BIN, ['serve', '--dir', dir, '--port', '0', '--demo'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    serve.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => serve.on('exit', (code) => resolve(code)));
    await new Promise<void>((resolve) => {
      serve.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (/dt=2026-11-28: QUARANTINED/.test(stdout)) resolve();
      });
      void exited.then(() => resolve());
    });
    serve.kill('SIGTERM');
    const code = await exited;
    rmSync(dir, { recursive: true, force: true });
    expect(code, `${stdout}\n${stderr}`).toBe(0);
    expect(stdout).toMatch(/gate: orders v1 dt=2026-11-29: PUBLISHED/);
    expect(stdout).toContain('stopping the local gate');
  }, 180_000);

  it('exits 2 for a contract file that does not exist', () => {
    const result = contractGate('lint', 'contracts/nope.yaml');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('contracts/nope.yaml: cannot read the contract file');
  });
});
