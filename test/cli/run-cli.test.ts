import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { expectGolden } from '../fixtures/golden.js';

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
const BAD = 'contracts/examples/orders/bad/dt=2026-11-29';
const NOW = ['--now', '2026-11-30T05:00:00Z'];

async function run(args: string[], isTTY = false) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

function tempFile(name: string, text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cg-cli-')), name);
  writeFileSync(path, text);
  return path;
}

describe('contract-gate validate', () => {
  it('exits 0 and prints a one-line PASS for a partition that keeps the contract', async () => {
    const { code, stdout, stderr } = await run(['validate', '--contract', 'contracts/orders.v1.yaml', GOOD, ...NOW]);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    expectGolden('validate-good.txt', stdout);
  });

  it('exits 1 and names column, rule and first offending values for a violated contract', async () => {
    const { code, stdout } = await run(['validate', '--contract', 'contracts/orders.v1.yaml', BAD, ...NOW]);
    expect(code).toBe(1);
    expectGolden('validate-bad.txt', stdout);
  });

  it('prints exactly the documented JSON report shape with --format json', async () => {
    const { code, stdout } = await run(['validate', '--contract', 'contracts/orders.v1.yaml', BAD, '--format', 'json', ...NOW]);
    expect(code).toBe(1);
    const report = JSON.parse(stdout);
    expect(Object.keys(report)).toEqual(['status', 'contract', 'rows', 'files', 'violations', 'checked_at', 'observed']);
    expect(Object.keys(report.violations[0])).toEqual(['rule', 'severity', 'column', 'count', 'message', 'samples']);
    expectGolden('validate-bad.json', stdout);
  });

  it('draws a progress line on a terminal but never in JSON output', async () => {
    const text = await run(['validate', '--contract', 'contracts/orders.v1.yaml', GOOD, ...NOW], true);
    expect(text.stderr).toMatch(/files \d+\/2, [\d,]+ rows read/);
    const json = await run(['validate', '--contract', 'contracts/orders.v1.yaml', GOOD, '--format', 'json', ...NOW], true);
    expect(json.stderr).toBe('');
    expect(() => JSON.parse(json.stdout)).not.toThrow();
  });

  it('exits 2 listing every problem with file, line and column when the contract is invalid', async () => {
    const contract = tempFile('broken.yaml', 'name: Orders\nversion: one\nowner: { team: x, notify: [a@b.c] }\nproduces: { format: parquet }\nschema:\n  columns:\n    - { name: id, type: strin }\n');
    const { code, stderr } = await run(['validate', '--contract', contract, GOOD]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${contract}:1:7 error [invalid_value] name:`);
    expect(stderr).toContain(`${contract}:2:10 error [invalid_value] version:`);
    expect(stderr).toContain(`${contract}:7:25 error [invalid_value] schema.columns[0].type: unknown type "strin"`);
  });

  it('exits 2 with a clear message for bad arguments and missing paths', async () => {
    const cases = [
      [['validate', GOOD], '--contract is required'],
      [['validate', '--contract', 'contracts/orders.v1.yaml'], 'name at least one file or directory'],
      [['validate', '--contract', 'contracts/orders.v1.yaml', 'no/such/dir'], 'no/such/dir: no such file or directory'],
      [['validate', '--contract', 'missing.yaml', GOOD], 'missing.yaml: cannot read the contract file'],
      [['validate', '--contract', 'contracts/orders.v1.yaml', GOOD, '--now', 'tomorrow'], '--now must be an ISO-8601 timestamp'],
      [['validate', '--contract', 'contracts/orders.v1.yaml', GOOD, '--format', 'xml'], '--format must be one of text, json, junit, html, not "xml"'],
      [['validate', '--contract', 'contracts/orders.v1.yaml', GOOD, '--colour'], "unknown option '--colour'\nusage: contract-gate validate"],
      [['frobnicate'], 'unknown command "frobnicate"'],
    ] as const;
    for (const [args, message] of cases) {
      const { code, stderr } = await run([...args]);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr).toContain(message);
    }
  });
});

describe('contract-gate lint', () => {
  it('exits 0 for clean contracts and 2 naming each problem of a bad one', async () => {
    expect((await run(['lint', 'contracts/orders.v1.yaml'])).code).toBe(0);
    const bad = tempFile('orders.v1.yaml', 'name: orders\nversion: 1.0.0\nownr: {}\n');
    const { code, stderr } = await run(['lint', 'contracts/orders.v1.yaml', bad]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${bad}:3:1 error [unknown_key] ownr: unknown key "ownr"; did you mean "owner"?`);
    expect(stderr).toContain('missing required key "produces"');
  });
});

describe('contract-gate demo', () => {
  it('validates the shipped partitions, the DuckDB-written one among them, and prints each verdict', async () => {
    const { code, stdout } = await run(['demo']);
    expect(code).toBe(0);
    expect(stdout).toContain('PASS orders 1.2.0: 2 files, 1,200 rows, no violations');
    expect(stdout).toContain('PASS orders 1.2.0: 1 file, 1,500 rows, no violations');
    expect(stdout).toContain('FAIL orders 1.2.0: 2 files, 1,200 rows, 7 violations');
  });
});
