import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCommand } from '../../lib/cli/import-command.js';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { parseContract } from '../../lib/contract/load-contract.js';

const dir = mkdtempSync(join(tmpdir(), 'import-command-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function io() {
  const out: string[] = [];
  const err: string[] = [];
  const value: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), isTTY: false };
  return { io: value, out, err };
}

describe('contract-gate import', () => {
  it('writes the contract on stdout; on stderr the format it read and why, then the warnings', async () => {
    const { io: cli, out, err } = io();
    expect(await importCommand(['test/import/fixtures/seeds/003-churn_features_v2.yaml', '--default-notify', 'bi-oncall@example.com'], cli)).toBe(0);
    expect(parseContract(out.join(''), 'churn_features.v2.yaml').contract?.owner.notify).toEqual(['bi-oncall@example.com']);
    const lines = err.join('').split('\n');
    expect(lines[0]).toBe('test/import/fixtures/seeds/003-churn_features_v2.yaml: read as skill (a contract mapping beside a top-level schema list)');
    expect(lines[1]).toMatch(/^test\/import\/fixtures\/seeds\/003-churn_features_v2\.yaml:5:10 warning \[placeholder\] contract\.owner: contract\.owner lists "e-mail"/);
  });

  it('writes <name>.v<major>.yaml in --out and never over an existing file', async () => {
    const first = io();
    expect(await importCommand(['--from', 'lesson', 'test/import/fixtures/seeds/001-orders_v1.yaml', '--out', dir], first.io)).toBe(0);
    expect(first.err.join('')).not.toContain('read as');
    const written = readFileSync(join(dir, 'orders.v1.yaml'), 'utf8');
    expect(parseContract(written, join(dir, 'orders.v1.yaml')).contract?.version.text).toBe('1.0.0');
    const second = io();
    expect(await importCommand(['test/import/fixtures/seeds/000-orders_v1.yaml', '--out', dir], second.io)).toBe(2);
    expect(second.err.join('')).toContain('exists already; not overwritten');
    expect(readFileSync(join(dir, 'orders.v1.yaml'), 'utf8')).toBe(written);
  });

  it('exits 2 with every positioned error when the file cannot be converted', async () => {
    const { io: cli, out, err } = io();
    expect(await importCommand(['test/import/fixtures/schema.dbt.yml'], cli)).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('')).toMatch(/schema\.dbt\.yml:1:1 error \[not_convertible\] models: .*pick one with --model/);
  });

  it('refuses an unknown --from', async () => {
    await expect(importCommand(['--from', 'avro', 'x.yaml'], io().io)).rejects.toThrow(/--from must be auto or one of dbt, .*, course/);
  });
});
