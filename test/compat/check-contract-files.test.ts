import { describe, expect, it } from 'vitest';
import { checkContractFiles, isContractFileName } from '../../lib/compat/check-contract-files.js';
import { formatCheckText } from '../../lib/compat/format-check.js';
import { addColumn, applyEdits, COUPON, ORDERS_V1, setVersion } from './contract-edits.js';
import { DEPRECATED_V1, V2 as V2_WITH_GRAIN, V2_DOCUMENT } from './migration-fixture.js';

const MINOR = applyEdits(ORDERS_V1, [addColumn('{ name: channel, type: string }'), setVersion('1.3.0')]);
const BREAKING = applyEdits(ORDERS_V1, [[`${COUPON}\n`, ''], setVersion('1.3.0')]);
const V2 = applyEdits(ORDERS_V1, [[`${COUPON}\n`, ''], setVersion('2.0.0')]);

function check(base: Record<string, string>, head: Record<string, string>, migrations: Record<string, string> = {}) {
  const texts = new Map(Object.entries(migrations));
  return checkContractFiles({ dir: 'contracts', base: new Map(Object.entries(base)), head: new Map(Object.entries(head)), migrations: { dir: 'contracts/migrations', texts } });
}

describe('checkContractFiles', () => {
  it('passes an edit whose declared bump is enough', () => {
    const [verdict, ...rest] = check({ 'orders.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': MINOR });
    expect(rest).toEqual([]);
    expect(verdict).toMatchObject({ file: 'orders.v1.yaml', state: 'modified', ok: true, reason: 'needs a minor bump, declares minor: OK' });
  });

  it('fails a breaking edit in place and says a new major version is a new file', () => {
    const [verdict] = check({ 'orders.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': BREAKING });
    expect(verdict?.ok).toBe(false);
    expect(verdict?.reason).toContain('a new major version must be a new file orders.v2.yaml beside orders.v1.yaml, not an edit of it');
  });

  it('names the next free major when v2 already exists', () => {
    const [verdict] = check({ 'orders.v1.yaml': ORDERS_V1, 'orders.v2.yaml': V2 }, { 'orders.v1.yaml': BREAKING, 'orders.v2.yaml': V2 });
    expect(verdict?.reason).toContain('a new file orders.v3.yaml beside orders.v1.yaml');
  });

  it('fails an edit that forgot the bump and says which version to set', () => {
    const sameVersion = applyEdits(MINOR, [['version: 1.3.0', 'version: 1.2.0']]);
    const [verdict] = check({ 'orders.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': sameVersion });
    expect(verdict).toMatchObject({ ok: false, reason: 'needs a minor bump, declares the same version: NOT OK; set version to 1.3.0' });
  });

  it('passes a new v2 beside a deprecated v1 with its migration document, and diffs it against v1', () => {
    const [, verdict] = check({ 'orders.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': DEPRECATED_V1, 'orders.v2.yaml': V2_WITH_GRAIN }, { 'orders_v1_to_v2.md': V2_DOCUMENT });
    expect(verdict).toMatchObject({ file: 'orders.v2.yaml', state: 'added', ok: true, reason: 'a new contract, orders 2.0.0, that loads' });
    expect(verdict?.diff?.against).toBe('orders.v1.yaml');
    expect(verdict?.diff?.result.changes.map((c) => c.change)).toEqual(['column_removed', 'grain_changed', 'status_changed']);
  });

  it('fails a new v2 without its migration document, naming the file to write and how to start it, and asks none of v1\'s minor bump', () => {
    const [v1, verdict] = check({ 'orders.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': DEPRECATED_V1, 'orders.v2.yaml': V2_WITH_GRAIN });
    expect(v1).toMatchObject({ file: 'orders.v1.yaml', ok: true, reason: 'needs a minor bump, declares minor: OK' });
    expect(verdict).toMatchObject({ file: 'orders.v2.yaml', ok: false });
    expect(verdict?.reason).toBe('orders v2 is a new major and needs a migration document: write contracts/migrations/orders_v1_to_v2.md, naming what changed, the window and the v1 sunset (start from: contract-gate diff contracts/orders.v1.yaml contracts/orders.v2.yaml --migration-skeleton contracts/migrations/orders_v1_to_v2.md)');
  });

  it('fails a new v2 whose document misses a breaking change, against v1 as it is now', () => {
    const [, verdict] = check({ 'orders.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': DEPRECATED_V1, 'orders.v2.yaml': V2_WITH_GRAIN }, { 'orders_v1_to_v2.md': V2_DOCUMENT.replace(/^- `coupon`.*\n/m, '') });
    expect(verdict?.reason).toBe('the migration document contracts/migrations/orders_v1_to_v2.md of orders v2 is incomplete: the "What changed and why" section does not name the breaking change diff finds: coupon (column_removed)');
    // A dataset that starts at v2 has no v1 to migrate from.
    expect(check({}, { 'orders.v2.yaml': V2 })[0]).toMatchObject({ ok: true });
  });


  it('fails a new contract that does not load, listing its problems', () => {
    const [verdict] = check({}, { 'orders.v1.yaml': 'name: orders\nversion: 1.0.0\n' });
    expect(verdict).toMatchObject({ state: 'added', ok: false });
    expect(verdict?.problems.join('\n')).toContain('contracts/orders.v1.yaml:1:1 error [missing_key]');
  });

  it('fails a deleted contract and says to retire it instead', () => {
    const [verdict] = check({ 'orders.v1.yaml': ORDERS_V1 }, {});
    expect(verdict).toMatchObject({ state: 'deleted', ok: false });
    expect(verdict?.reason).toContain('set status: retired instead of deleting, so the gate quarantines stray drops with a clear report');
  });

  it('ignores unchanged files and files that are not contracts', () => {
    expect(check({ 'orders.v1.yaml': ORDERS_V1, 'contract.schema.json': '{}' }, { 'orders.v1.yaml': ORDERS_V1, 'contract.schema.json': '{"x":1}' })).toEqual([]);
    expect(['a.yaml', 'a.yml', 'contract.schema.json', 'examples/a.yaml'].map(isContractFileName)).toEqual([true, true, false, false]);
  });
});

describe('formatCheckText', () => {
  it('prints a verdict per file with its changes, then how many fail', () => {
    const verdicts = check({ 'orders.v1.yaml': ORDERS_V1, 'old.v1.yaml': ORDERS_V1 }, { 'orders.v1.yaml': BREAKING });
    const text = formatCheckText(verdicts, 'check-compat contracts against main');
    expect(text).toContain('FAIL old.v1.yaml (deleted): a deleted contract is breaking');
    expect(text).toContain('FAIL orders.v1.yaml (modified): needs a major bump: a new major version must be a new file orders.v2.yaml');
    expect(text).toContain('\n  breaking  column_removed coupon:');
    expect(text.trimEnd().split('\n').at(-1)).toBe('2 of 2 changed contract files fail: NOT OK');
  });

  it('says so when no contract file changed', () => {
    expect(formatCheckText([], 'check-compat contracts against main')).toBe('check-compat contracts against main\nno contract file changed: OK\n');
  });
});
