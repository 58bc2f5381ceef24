import { describe, expect, it } from 'vitest';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import { formatDiffText } from '../../lib/compat/format-diff.js';
import { applyEdits, COUPON, loadText, ORDERS_V1, setMode, setVersion, type Edit } from './contract-edits.js';

function text(edits: readonly Edit[], version = '1.3.0', both: readonly Edit[] = []): string {
  const old = loadText(applyEdits(ORDERS_V1, both));
  const next = loadText(applyEdits(ORDERS_V1, [...both, ...edits, setVersion(version)]));
  return formatDiffText(diffContracts(old, next), 'orders 1.2.0 → 1.3.0');
}

describe('formatDiffText', () => {
  it('prints a title, one line per change with class, id, column and message, then the verdict', () => {
    const lines = text([[`${COUPON}\n`, ''], ['max_lag_hours: 26', 'max_lag_hours: 30']]).trimEnd().split('\n');
    expect(lines[0]).toBe('orders 1.2.0 → 1.3.0');
    expect(lines[1]).toMatch(/^ {2}breaking {2}column_removed coupon: column "coupon" was removed/);
    expect(lines[2]).toMatch(/^ {2}flagged {3}sla_changed: sla max_lag_hours 26 → 30/);
    expect(lines[3]).toBe('needs a major bump, declares minor: NOT OK');
  });

  it('says OK when the declared bump is enough', () => {
    expect(text([['max_lag_hours: 26', 'max_lag_hours: 30']])).toContain('needs a minor bump, declares minor: OK');
  });

  it('says when nothing changed', () => {
    expect(text([], '1.2.0')).toBe('orders 1.2.0 → 1.3.0\n  no changes\nneeds no bump, declares the same version: OK\n');
  });

  it('says a lower version is not OK', () => {
    expect(text([], '1.1.0')).toContain('needs no bump, declares a lower version: NOT OK');
  });

  it('says that compat.mode none reports breaking changes without enforcing them', () => {
    expect(text([[`${COUPON}\n`, '']], '1.3.0', [setMode('none')])).toContain('needs a minor bump (compat.mode none: breaking changes are reported, not enforced), declares minor: OK');
  });
});
