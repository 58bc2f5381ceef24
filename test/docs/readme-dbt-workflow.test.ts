import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCaptured } from '../cli/run-captured.js';

const SECTION = '#### dbt tests that cannot drift from the contract';

/** The README's dbt section: its shell commands and the workflow a user copies. */
function readmeSection(): { commands: string[]; workflow: string } {
  const readme = readFileSync('README.md', 'utf8');
  const start = readme.indexOf(SECTION);
  if (start === -1) throw new Error(`README.md: no section "${SECTION}"`);
  const section = readme.slice(start, readme.indexOf('\n## ', start));
  const block = (lang: string) => new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(section)?.[1] ?? '';
  return { commands: block('sh').trim().split('\n'), workflow: block('yaml') };
}

/** `npx contract-gate <args>` as the arguments of an in-process run, the schema file moved into `dir`. */
function argsOf(command: string, dir: string): string[] {
  const words = command.trim().split(/\s+/);
  expect(words.slice(0, 2)).toEqual(['npx', 'contract-gate']);
  return words.slice(2).map((word, at, all) => (all[at - 1] === '--check' || all[at - 1] === '--write' ? join(dir, word) : word));
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the README\'s dbt drift check, run as printed', () => {
  const { commands, workflow } = readmeSection();
  const steps = (parse(workflow) as { jobs: Record<string, { steps: { run?: string }[] }> }).jobs;
  const checks = Object.values(steps).flatMap((job) => job.steps.flatMap((step) => step.run?.split('\n') ?? [])).filter((line) => line.includes('contract-gate export'));

  it('is a pull-request workflow on the contracts that runs export --to dbt --check', () => {
    expect(parse(workflow).on.pull_request.paths).toContain('contracts/**');
    expect(checks.length).toBeGreaterThan(0);
    for (const line of checks) expect(line).toMatch(/^npx contract-gate export \S+ --to dbt .*--check \S+$/);
  });

  it('fails the workflow\'s check on a hand-edited test and passes it after the regenerate command it prints', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-readme-dbt-'));
    dirs.push(dir);
    for (const line of checks) {
      const check = argsOf(line, dir);
      const file = check[check.indexOf('--check') + 1]!;
      const missing = await runCaptured(...check);
      expect(missing.code).toBe(1);
      const regenerate = /^ {2}(npx contract-gate .*)$/m.exec(missing.stdout)?.[1];
      expect(regenerate).toBeDefined();
      expect((await runCaptured(...argsOf(regenerate!, '/'))).code).toBe(0);
      expect((await runCaptured(...check)).code).toBe(0);

      writeFileSync(file, readFileSync(file, 'utf8').replace('max_value: 32', 'max_value: 33'));
      const drifted = await runCaptured(...check);
      expect(drifted.code).toBe(1);
      expect(drifted.stdout).toContain('-              max_value: 33\n+              max_value: 32\n');
      expect((await runCaptured(...argsOf(regenerate!, '/'))).code).toBe(0);
      expect((await runCaptured(...check)).code).toBe(0);
    }
  });

  it('holds majors 1 and 2 in one file as it says, each passing its own check', async () => {
    expect(readFileSync('README.md', 'utf8')).toContain('`<name>` for\nmajor 1, `<name>_v<major>` from major 2');
    const dir = mkdtempSync(join(tmpdir(), 'cg-readme-dbt-'));
    dirs.push(dir);
    const v2 = join(dir, 'orders.v2.yaml');
    writeFileSync(v2, readFileSync('contracts/orders.v1.yaml', 'utf8').replace(/^version: .*$/m, 'version: 2.0.0'));
    const file = join(dir, '_orders.yml');
    for (const contract of ['contracts/orders.v1.yaml', v2]) expect((await runCaptured('export', contract, '--to', 'dbt', '--write', file)).code).toBe(0);
    expect(parse(readFileSync(file, 'utf8')).models.map((m: { name: string }) => m.name)).toEqual(['orders', 'orders_v2']);
    for (const contract of ['contracts/orders.v1.yaml', v2]) expect((await runCaptured('export', contract, '--to', 'dbt', '--check', file)).code).toBe(0);
  });

  it('shows the --write and --check commands the workflow relies on, with the same file and adapter', () => {
    expect(commands).toHaveLength(2);
    expect(commands[0]!.replace('--write', '--check')).toBe(commands[1]);
    expect(checks).toContain(commands[1]);
  });
});
