import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import { formatDiffText } from '../../lib/compat/format-diff.js';
import { column, CUSTOMERS, KEY_CASES, mode, ORDERS, sla, tolerance, version, versionsOf, type KeyCase } from './rule-key-cases.js';

function diffOf(c: Omit<KeyCase, 'name' | 'changes' | 'required' | 'ok'>) {
  const [old, next] = versionsOf({ name: '', changes: [], required: 'none', ok: true, ...c });
  return diffContracts(old, next);
}

describe('diffContracts classifies changes of severities, tolerances, references and history checks', () => {
  it.each(KEY_CASES)('$name', (c) => {
    const diff = diffOf(c);
    expect(diff.changes.map((x) => [x.change, x.column, x.class])).toEqual(c.changes);
    expect({ required: diff.required_bump, ok: diff.ok }).toEqual({ required: c.required, ok: c.ok });
  });
});

describe('the messages of these changes say what happens to the data', () => {
  const message = (c: Parameters<typeof diffOf>[0]) => diffOf(c).changes.map((x) => x.message).join('\n');

  it('says a loosened severity publishes, with a warning, data that was stopped', () => {
    const text = message({ next: [column('amount', (c) => ({ ...c, severity: { min: 'warn' } }))] });
    expect(text).toContain('"amount" min severity error → warn: data it stopped is now published with a warning; old data stays valid');
  });

  it('says a tightened severity stops data that was published with a warning', () => {
    expect(message({ old: [column('amount', (c) => ({ ...c, severity: { min: 'warn' } }))] })).toContain('"amount" min severity warn → error: data it published with a warning is now stopped');
  });

  it('says why a change of a warn rule stops nothing', () => {
    const text = message({ both: [column('amount', (c) => ({ ...c, severity: { min: 'warn' } }))], next: [column('amount', (c) => ({ ...c, min: 1 }))] });
    expect(text).toContain('"amount" min 0 → 1: min is severity warn: it reports and stops no data');
  });

  it('says a new tolerance may publish partial partitions, and names the mode where that breaks old readers', () => {
    expect(message({ next: [tolerance({ rowTolerance: 0.02 })] })).toContain('on_violation none → row_tolerance 0.02: a batch the old version quarantined whole may now be published without its invalid rows, so consumers may get partial partitions');
    expect(message({ mode: 'full', next: [tolerance({ rowTolerance: 0.02 })] })).toContain('may now get one with rows missing (compat.mode full)');
  });

  it('names the old and the new target of a reference', () => {
    const text = message({ both: [column('coupon', (c) => ({ ...c, references: CUSTOMERS }))], next: [column('coupon', (c) => ({ ...c, references: { ...CUSTOMERS, major: 2, partition: 'dt=2026-11-30' } }))] });
    expect(text).toContain('"coupon" references customers.customer_id → customers.customer_id (v2, partition dt=2026-11-30)');
  });

  it('names the history check in the contract\'s words', () => {
    expect(message({ next: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.5, maxRatio: 2 } })] })).toContain('sla volume_vs_history none → { lookback 14, min_ratio 0.5, max_ratio 2 }');
  });

  it('names every consumer for a tolerance change, which is about whole batches', () => {
    const consumers = [{ team: 'finance', notify: ['finance@example.com'], columns: ['amount'] }];
    const diff = diffOf({ both: [(c) => ({ ...c, consumers })], next: [tolerance({ maxInvalidRows: 5 })] });
    expect(diff.changes[0]?.consumers).toEqual(['finance']);
  });
});

describe('the diff text and JSON carry the new changes with their class', () => {
  it('prints one line per change with class, id and column', () => {
    const old = ORDERS;
    const next = [column('amount', (c) => ({ ...c, severity: { min: 'warn' } })), tolerance({ maxInvalidRows: 10 }), mode('backward'), version('1.3.0')].reduce((c, edit) => edit(c), ORDERS);
    const lines = formatDiffText(diffContracts(old, next), 'orders 1.2.0 → 1.3.0').trimEnd().split('\n');
    expect(lines[1]).toMatch(/^ {2}non-breaking {2}severity_loosened amount: "amount" min severity error → warn/);
    expect(lines[2]).toMatch(/^ {2}non-breaking {2}tolerance_loosened: on_violation none → max_invalid_rows 10/);
    expect(lines.at(-1)).toBe('needs a minor bump, declares minor: OK');
    expect(JSON.parse(JSON.stringify(diffContracts(old, next))).changes.map((c: { change: string; class: string }) => [c.change, c.class])).toEqual([['severity_loosened', 'non-breaking'], ['tolerance_loosened', 'non-breaking']]);
  });
});
