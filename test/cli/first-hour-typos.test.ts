import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCaptured } from './run-captured.js';

// Mistakes of a first hour: a mistyped command or option, and a version YAML reads as a number.

describe('a mistyped command', () => {
  it('gets the command meant, in one line, and exit 2', async () => {
    for (const [typed, meant] of [['valdate', 'validate'], ['infr', 'infer'], ['publsh', 'publish'], ['chek-compat', 'check-compat']] as const) {
      const { code, stdout, stderr } = await runCaptured(typed, '--contract', 'contracts/orders.v1.yaml');
      expect({ typed, code, stdout, stderr }).toEqual({ typed, code: 2, stdout: '', stderr: `contract-gate: unknown command "${typed}"; did you mean ${meant}? (contract-gate ${meant} --help shows how to run it)\n` });
    }
  });

  it('gets the overview when it is like no command, and help names the topic meant', async () => {
    const far = await runCaptured('frobnicate');
    expect(far.code).toBe(2);
    expect(far.stderr).toMatch(/^contract-gate: unknown command "frobnicate"\n\ncontract-gate: /);
    const help = await runCaptured('help', 'valdate');
    expect({ code: help.code, stderr: help.stderr }).toEqual({ code: 2, stderr: 'contract-gate: no help for "valdate", which is no command; did you mean contract-gate help validate?\n' });
  });

});

describe('a mistyped option', () => {
  it('gets the option meant', async () => {
    const { code, stderr } = await runCaptured('drop', '--contrct', 'contracts/orders.v1.yaml', 'dt=2026-11-29', '--to', 's3://lake');
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe("contract-gate drop: unknown option '--contrct'; did you mean '--contract'?");
  });
});

describe('a native contract whose version YAML reads as a number', () => {
  const lint = (version: string) => {
    const path = join(mkdtempSync(join(tmpdir(), 'cg-version-')), 'orders.v1.yaml');
    writeFileSync(path, readFileSync('contracts/orders.v1.yaml', 'utf8').replace('version: 1.2.0', `version: ${version}`));
    return runCaptured('lint', path).then((result) => ({ ...result, path }));
  };
  const prefix = 'error [invalid_value] version: expected a semantic version MAJOR.MINOR.PATCH such as 1.2.0, found';

  it('suggests quoting it with three parts: version: 1.0 → version: "1.0.0"', async () => {
    const { code, stdout, stderr, path } = await lint('1.0');
    expect(code).toBe(2);
    expect(stdout + stderr).toContain(`${path}:3:10 ${prefix} 1: YAML reads the unquoted 1.0 as the number 1, not as text; quote the version and give all three parts: version: "1.0.0"\n`);
  });

  it('does the same for a float such as 1.2 or 1.20', async () => {
    const short = await lint('1.2');
    expect(short.stdout + short.stderr).toContain(`${prefix} 1.2: YAML reads the unquoted 1.2 as the number 1.2, not as text; quote the version and give all three parts: version: "1.2.0"\n`);
    const trailingZero = await lint('1.20');
    expect(trailingZero.stdout + trailingZero.stderr).toContain(`${prefix} 1.2: YAML reads the unquoted 1.20 as the number 1.2, not as text; quote the version and give all three parts: version: "1.20.0"\n`);
  });

  it('asks only for the missing part when the version is quoted but short', async () => {
    const { stdout, stderr } = await lint('"1.0"');
    expect(stdout + stderr).toContain(`${prefix} "1.0": a version has three parts: version: "1.0.0"\n`);
  });
});
