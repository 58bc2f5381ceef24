import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT, type CliIo } from '../../lib/cli/cli-io.js';
import { diffCommand } from '../../lib/cli/diff-command.js';
import { GateError } from '../../lib/errors.js';
import { addColumn, applyEdits, COUPON, ORDERS_V1, setVersion, type Edit } from '../compat/contract-edits.js';
import { DEPRECATED_V1, V2 } from '../compat/migration-fixture.js';

const OLD = 'contracts/orders.v1.yaml';

/** Runs the command in-process and maps a thrown error to exit 2, as runCli does for every command. */
async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  try {
    return { code: await diffCommand(args, io), stdout, stderr };
  } catch (error) {
    const parseArgsError = error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS');
    if (!(error instanceof GateError) && !parseArgsError) throw error;
    return { code: EXIT.cannotProceed, stdout, stderr: stderr + (error as Error).message };
  }
}

function newVersion(edits: readonly Edit[], file = 'orders.v1.yaml'): string {
  const path = join(mkdtempSync(join(tmpdir(), 'cg-diff-')), file);
  writeFileSync(path, applyEdits(ORDERS_V1, edits));
  return path;
}

describe('contract-gate diff', () => {
  it('exits 0 when the declared bump covers the changes', async () => {
    const next = newVersion([addColumn('{ name: channel, type: string }'), setVersion('1.3.0')]);
    const { code, stdout } = await run([OLD, next]);
    expect(code).toBe(0);
    expect(stdout).toContain('non-breaking  column_added channel');
    expect(stdout).toContain('needs a minor bump, declares minor: OK');
  });

  it('exits 1 when a breaking change declares only a minor bump', async () => {
    const next = newVersion([[`${COUPON}\n`, ''], setVersion('1.3.0')]);
    const { code, stdout } = await run([OLD, next]);
    expect(code).toBe(1);
    expect(stdout).toContain('breaking  column_removed coupon');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('needs a major bump, declares minor: NOT OK');
  });

  it('exits 1 when the version went down', async () => {
    const { code, stdout } = await run([OLD, newVersion([setVersion('1.1.0')])]);
    expect(code).toBe(1);
    expect(stdout).toContain('error  version_decreased');
  });

  it('prints exactly the documented JSON shape with --format json', async () => {
    const next = newVersion([[`${COUPON}\n`, ''], setVersion('1.3.0')]);
    const { code, stdout } = await run([OLD, next, '--format', 'json']);
    expect(code).toBe(1);
    const diff = JSON.parse(stdout);
    expect(Object.keys(diff)).toEqual(['changes', 'required_bump', 'declared_bump', 'ok']);
    expect(diff).toMatchObject({ required_bump: 'major', declared_bump: 'minor', ok: false });
    expect(diff.changes[0]).toEqual({ change: 'column_removed', column: 'coupon', class: 'breaking', message: expect.stringContaining('no registered consumer reads it') });
  });

  it('exits 2 listing the problems of every invalid file', async () => {
    const broken = newVersion([['version: 1.2.0', 'version: one']]);
    const alsoBroken = newVersion([['grain: [order_id]', 'grain: [order]']]);
    const { code, stderr } = await run([broken, alsoBroken]);
    expect(code).toBe(2);
    expect(stderr).toContain(`${broken} is not a valid contract:\n${broken}:3:10 error [invalid_value] version:`);
    expect(stderr).toContain(`${alsoBroken} is not a valid contract:\n${alsoBroken}:9:11 error [unknown_column] schema.grain[0]`);
  });

  it('exits 2 with a clear message for bad arguments', async () => {
    const cases = [
      [[OLD], 'name exactly two contract files'],
      [[OLD, OLD, OLD], 'name exactly two contract files'],
      [[OLD, OLD, '--format', 'xml'], '--format must be text or json'],
      [[OLD, 'missing.yaml'], 'missing.yaml: cannot read the contract file'],
      [[OLD, newVersion([['name: orders', 'name: invoices']], 'invoices.v1.yaml')], 'cannot diff two datasets'],
      [[OLD, OLD, '--colour'], "Unknown option '--colour'"],
    ] as const;
    for (const [args, message] of cases) {
      const { code, stderr } = await run([...args]);
      expect({ args, code }).toEqual({ args, code: 2 });
      expect(stderr).toContain(message);
    }
  });
});

describe('contract-gate diff --migration-skeleton', () => {
  /** v1 deprecated and v2 beside it in a fresh contracts directory. */
  function majors(): { v1: string; v2: string; doc: string } {
    const dir = mkdtempSync(join(tmpdir(), 'cg-skeleton-'));
    const [v1, v2] = [join(dir, 'orders.v1.yaml'), join(dir, 'orders.v2.yaml')];
    writeFileSync(v1, DEPRECATED_V1);
    writeFileSync(v2, V2);
    return { v1, v2, doc: join(dir, 'migrations', 'orders_v1_to_v2.md') };
  }

  it('writes a new major\'s migration document to start from, its directory too, with the breaking changes and the sunset', async () => {
    const { v1, v2, doc } = majors();
    const { code, stdout, stderr } = await run([v1, v2, '--migration-skeleton', doc]);
    expect(code).toBe(0);
    expect(stdout).toContain('breaking  column_removed coupon');
    expect(stderr).toBe(`wrote the migration skeleton ${doc}: replace each TODO(migration) before check-compat or publish\n`);
    const skeleton = readFileSync(doc, 'utf8');
    expect(skeleton).toContain('## What changed and why\n\nBreaking changes, as `contract-gate diff` finds them:\n\n- `coupon` (column_removed)');
    expect(skeleton).toContain('- v1 sunset: 2027-01-31 (the `sunset` of orders 1.3.0)');
  });

  it('never writes over a document that exists', async () => {
    const { v1, v2, doc } = majors();
    await run([v1, v2, '--migration-skeleton', doc]);
    writeFileSync(doc, 'written by hand\n');
    const { code, stderr } = await run([v1, v2, '--migration-skeleton', doc]);
    expect(code).toBe(2);
    expect(stderr).toBe(`--migration-skeleton ${doc}: it exists already; not overwritten (move it away, or name another file)`);
    expect(readFileSync(doc, 'utf8')).toBe('written by hand\n');
  });

  it('refuses a minor or patch, which needs no migration document, and writes nothing', async () => {
    const next = newVersion([addColumn('{ name: channel, type: string }'), setVersion('1.3.0')]);
    const doc = join(mkdtempSync(join(tmpdir(), 'cg-skeleton-')), 'orders_v1_to_v2.md');
    const { code, stderr } = await run([OLD, next, '--migration-skeleton', doc]);
    expect(code).toBe(2);
    expect(stderr).toBe('--migration-skeleton is for a new major: orders 1.3.0 is not a major above 1.2.0, and a minor or patch needs no migration document');
    expect(existsSync(doc)).toBe(false);
  });
});
