import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCompatCommand } from '../../lib/cli/check-compat-command.js';
import { EXIT, type CliIo } from '../../lib/cli/cli-io.js';
import { GateError } from '../../lib/errors.js';
import { addColumn, applyEdits, COUPON, ORDERS_V1, setVersion } from '../compat/contract-edits.js';
import { DEPRECATED_V1, V2 as V2_WITH_GRAIN, V2_DOCUMENT } from '../compat/migration-fixture.js';
import { SILENT_ODCS } from './silent-odcs.js';
import { findAll, parseStrictXml } from './strict-xml.js';

const MINOR = applyEdits(ORDERS_V1, [addColumn('{ name: channel, type: string }'), setVersion('1.3.0')]);
const BREAKING = applyEdits(ORDERS_V1, [[`${COUPON}\n`, ''], setVersion('1.3.0')]);
const V2 = applyEdits(ORDERS_V1, [[`${COUPON}\n`, ''], setVersion('2.0.0')]);
const UNBUMPED = applyEdits(ORDERS_V1, [addColumn('{ name: channel, type: string }')]);

/** 1-based line of the first line of `text` that contains `part`. */
function lineOf(text: string, part: string): number {
  return text.split('\n').findIndex((line) => line.includes(part)) + 1;
}

/** Runs the command in-process and maps a thrown GateError to exit 2, as runCli does. */
/** A day inside the fixture's window: v1's sunset, 2027-01-31, is still ahead. */
const BEFORE_SUNSET = '2026-12-01T00:00:00Z';

async function run(args: string[]) {
  let stdout = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => undefined, isTTY: false };
  try {
    return { code: await checkCompatCommand(args, io), stdout, stderr: '' };
  } catch (error) {
    if (!(error instanceof GateError)) throw error;
    return { code: EXIT.cannotProceed, stdout, stderr: error.message };
  }
}

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' });
}

/** A repository whose main holds orders.v1.yaml, checked out on a feature branch; returns its contracts dir. */
function producerRepo(): { repo: string; contracts: string } {
  const repo = mkdtempSync(join(tmpdir(), 'cg-compat-'));
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 'tests@example.com');
  git(repo, 'config', 'user.name', 'contract-gate tests');
  git(repo, 'config', 'commit.gpgsign', 'false');
  const contracts = join(repo, 'contracts');
  mkdirSync(join(contracts, 'examples'), { recursive: true });
  writeFileSync(join(contracts, 'orders.v1.yaml'), ORDERS_V1);
  writeFileSync(join(contracts, 'contract.schema.json'), '{}');
  writeFileSync(join(contracts, 'examples', 'sample.yaml'), 'not: a contract\n');
  commit(repo, 'contracts');
  git(repo, 'checkout', '-q', '-b', 'feature');
  return { repo, contracts };
}

function commit(repo: string, message: string): void {
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', message);
}

describe('contract-gate check-compat', () => {
  it('passes an allowed minor change committed on a branch', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), MINOR);
    commit(repo, 'minor');
    const { code, stdout } = await run(['--base', 'main', contracts]);
    expect(code).toBe(0);
    expect(stdout).toContain(`check-compat ${contracts} against the merge-base of HEAD and main`);
    expect(stdout).toContain('PASS orders.v1.yaml (modified): needs a minor bump, declares minor: OK');
    expect(stdout).toContain('1 changed contract file, all pass: OK');
  });

  it('fails a breaking edit in place and says a new major version must be a new file', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), BREAKING);
    commit(repo, 'breaking');
    const { code, stdout } = await run(['--base', 'main', contracts]);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL orders.v1.yaml (modified): needs a major bump: a new major version must be a new file orders.v2.yaml beside orders.v1.yaml, not an edit of it');
    expect(stdout).toContain('breaking  column_removed coupon');
  });

  it('passes a new v2 file beside a deprecated v1 with its migration document, and shows its diff against v1', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), DEPRECATED_V1);
    writeFileSync(join(contracts, 'orders.v2.yaml'), V2_WITH_GRAIN);
    mkdirSync(join(contracts, 'migrations'));
    writeFileSync(join(contracts, 'migrations', 'orders_v1_to_v2.md'), V2_DOCUMENT);
    commit(repo, 'v2');
    const { code, stdout } = await run(['--base', 'main', '--now', BEFORE_SUNSET, contracts]);
    expect(code).toBe(0);
    expect(stdout).toContain('PASS orders.v2.yaml (added): a new contract, orders 2.0.0, that loads');
    expect(stdout).toContain('against orders.v1.yaml, for information (needs a major bump, declares major: OK):');
  });

  it('fails a new v2 whose v1 sunset is already past by --now: v1 would retire at once, with no window', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), DEPRECATED_V1);
    writeFileSync(join(contracts, 'orders.v2.yaml'), V2_WITH_GRAIN);
    mkdirSync(join(contracts, 'migrations'));
    writeFileSync(join(contracts, 'migrations', 'orders_v1_to_v2.md'), V2_DOCUMENT);
    commit(repo, 'v2 after the sunset');
    const { code, stdout } = await run(['--base', 'main', '--now', '2027-02-01T09:00:00Z', contracts]);
    expect(code).toBe(1);
    expect(stdout).toContain('is incomplete: the sunset of orders v1 (1.3.0), 2027-01-31, is not after today (2027-02-01): v1 would retire at once');
  });

  it('fails a new v2 file without its migration document, naming the file to write', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), DEPRECATED_V1);
    writeFileSync(join(contracts, 'orders.v2.yaml'), V2_WITH_GRAIN);
    commit(repo, 'v2 without a migration plan');
    const { code, stdout } = await run(['--base', 'main', contracts]);
    expect(code).toBe(1);
    const doc = join(contracts, 'migrations', 'orders_v1_to_v2.md');
    expect(stdout).toContain(`FAIL orders.v2.yaml (added): orders v2 is a new major and needs a migration document: write ${doc}, naming what changed, the window and the v1 sunset (start from: contract-gate diff ${contracts}/orders.v1.yaml ${contracts}/orders.v2.yaml --migration-skeleton ${doc})`);
  });

  it('reads the documents from --migrations, uncommitted ones too, and says what one lacks', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), DEPRECATED_V1);
    writeFileSync(join(contracts, 'orders.v2.yaml'), V2_WITH_GRAIN);
    commit(repo, 'v2');
    const docs = join(repo, 'docs', 'migrations');
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, 'orders_v1_to_v2.md'), V2_DOCUMENT.replace('2027-01-31: v1 sunset', '2027-02-28: v1 sunset'));
    const wrong = await run(['--base', 'main', '--migrations', docs, contracts]);
    expect(wrong.code).toBe(1);
    expect(wrong.stdout).toContain(`FAIL orders.v2.yaml (added): the migration document ${docs}/orders_v1_to_v2.md of orders v2 is incomplete: line 15 gives the sunset as 2027-02-28, but the sunset of orders v1 (1.3.0) is 2027-01-31`);
    writeFileSync(join(docs, 'orders_v1_to_v2.md'), V2_DOCUMENT);
    expect((await run(['--base', 'main', '--migrations', docs, '--now', BEFORE_SUNSET, contracts])).code).toBe(0);
  });

  it('fails a deleted contract file and says to retire it instead', async () => {
    const { repo, contracts } = producerRepo();
    rmSync(join(contracts, 'orders.v1.yaml'));
    commit(repo, 'delete');
    const { code, stdout } = await run(['--base', 'main', contracts]);
    expect(code).toBe(1);
    expect(stdout).toContain('FAIL orders.v1.yaml (deleted): a deleted contract is breaking: set status: retired instead of deleting, so the gate quarantines stray drops with a clear report');
  });

  it('checks uncommitted edits too, and ignores the JSON Schema and sub-directories', async () => {
    const { contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), BREAKING);
    writeFileSync(join(contracts, 'contract.schema.json'), '{"changed": true}');
    writeFileSync(join(contracts, 'examples', 'sample.yaml'), 'changed: too\n');
    const { code, stdout } = await run(['--base', 'main', contracts]);
    expect(code).toBe(1);
    expect(stdout).not.toContain('contract.schema.json');
    expect(stdout).not.toContain('sample.yaml');
    expect(stdout).toContain('1 of 1 changed contract file fail: NOT OK');
  });

  it('defaults the base to the merge-base with main and says so', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), MINOR);
    commit(repo, 'minor');
    const { code, stdout } = await run([contracts]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/against the merge-base of HEAD and main \([0-9a-f]{12}\), the default base/);
  });

  it('falls back to HEAD~1 on main itself, where the merge-base would compare nothing', async () => {
    const { repo, contracts } = producerRepo();
    git(repo, 'checkout', '-q', 'main');
    writeFileSync(join(contracts, 'orders.v1.yaml'), BREAKING);
    commit(repo, 'breaking on main');
    const { code, stdout } = await run([contracts]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/against HEAD~1 \([0-9a-f]{12}\)/);
  });

  it('exits 2 when the base ref does not exist', async () => {
    const { contracts } = producerRepo();
    const { code, stderr } = await run(['--base', 'origin/nope', contracts]);
    expect(code).toBe(2);
    expect(stderr).toContain('--base "origin/nope" names no commit in this repository');
  });

  it('exits 2 outside a git repository and for a missing directory', async () => {
    const plain = mkdtempSync(join(tmpdir(), 'cg-nogit-'));
    expect(await run([plain])).toMatchObject({ code: 2, stderr: `${plain} is not inside a git work tree: check-compat compares contracts with a git base` });
    expect(await run([join(plain, 'contracts')])).toMatchObject({ code: 2, stderr: `${join(plain, 'contracts')}: no such contract directory` });
  });
});

describe('contract-gate check-compat --format junit and github', () => {
  it('writes one JUnit testcase per contract file judged, failures matching the verdicts', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), BREAKING);
    writeFileSync(join(contracts, 'orders.v2.yaml'), V2);
    commit(repo, 'breaking v1, new v2');
    mkdirSync(join(contracts, 'migrations'));
    writeFileSync(join(contracts, 'migrations', 'orders_v1_to_v2.md'), V2_DOCUMENT.replace('## Deprecation timeline', '## Dates'));
    const { code, stdout } = await run(['--base', 'main', '--format', 'junit', contracts]);
    expect(code).toBe(1);
    const root = parseStrictXml(stdout);
    expect(root.attributes).toMatchObject({ tests: '2', failures: '2' });
    const cases = findAll(root, 'testcase');
    expect(cases.map((c) => c.attributes.name)).toEqual(['orders.v1.yaml (modified)', 'orders.v2.yaml (added)']);
    const failure = findAll(cases[0]!, 'failure')[0];
    expect(failure?.attributes.message).toContain('needs a major bump: a new major version must be a new file orders.v2.yaml');
    expect(failure?.text).toContain('breaking  column_removed coupon');
    // v1 is edited, not deprecated: the document cannot agree with a sunset v1 does not have.
    expect(findAll(cases[1]!, 'failure')[0]?.attributes.message).toContain('is incomplete: no "## Deprecation timeline" section (a heading with "timeline", "window" or "sunset"); orders v1 (1.3.0) is active with no sunset');
  });

  it('annotates a breaking edit where the columns are, relative to the repository root', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), BREAKING);
    commit(repo, 'breaking');
    const { code, stdout } = await run(['--base', 'main', '--format', 'github', contracts]);
    expect(code).toBe(1);
    const at = `file=contracts/orders.v1.yaml,line=${lineOf(BREAKING, '  columns:')},col=3`;
    expect(stdout).toContain(`::error ${at},title=check-compat%3A orders.v1.yaml (modified)::needs a major bump: a new major version must be a new file orders.v2.yaml`);
    expect(stdout).toMatch(new RegExp(`^::error ${at},title=column_removed coupon::breaking: `, 'm'));
    expect(stdout.trimEnd().split('\n').every((line) => line.startsWith('::'))).toBe(true);
  });

  it('points a bump that is too small at the version key', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.yaml'), UNBUMPED);
    commit(repo, 'column without a bump');
    const { code, stdout } = await run(['--base', 'main', '--format', 'github', contracts]);
    expect(code).toBe(1);
    expect(stdout).toContain(`::error file=contracts/orders.v1.yaml,line=${lineOf(UNBUMPED, 'version:')},col=1,title=check-compat%3A orders.v1.yaml (modified)::needs a minor bump`);
    expect(stdout).toContain('set version to 1.3.0');
  });

  it('loads both sides with --default-notify and --default-format', async () => {
    const { repo, contracts } = producerRepo();
    writeFileSync(join(contracts, 'orders.v1.odcs.yaml'), SILENT_ODCS);
    commit(repo, 'an ODCS contract that names no one to page and no format');
    expect((await run(['--base', 'main', contracts])).stdout).toContain('FAIL orders.v1.odcs.yaml (added): a new contract that does not load');
    const { code, stdout } = await run(['--base', 'main', '--default-notify', 'oncall@example.com', '--default-format', 'parquet', contracts]);
    expect(code).toBe(0);
    expect(stdout).toContain('PASS orders.v1.odcs.yaml (added): a new contract, orders 1.0.0, that loads');
  });

  it('refuses a format it does not write', async () => {
    const { contracts } = producerRepo();
    expect(await run(['--format', 'xml', contracts])).toMatchObject({ code: 2, stderr: '--format must be one of text, junit, github, not "xml"' });
  });
});
