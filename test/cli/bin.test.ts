import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
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

  it('exits 2 for a contract file that does not exist', () => {
    const result = contractGate('lint', 'contracts/nope.yaml');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('contracts/nope.yaml: cannot read the contract file');
  });
});
