import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import { strictContract } from '../../lib/checks/rule-severity.js';
import type { Contract } from '../../lib/contract/model.js';
import { contractFrom, memoryFile, NEXT_MORNING } from '../fixtures/partition.js';

function contract(columns: string, rest = ''): Contract {
  return contractFrom(`name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
${rest}
  columns:
${columns}
`);
}

const run = (c: Contract, text: string, now = NEXT_MORNING) => runChecks(buildCheckPlan(c, now), [memoryFile('part.csv', text)]).then((r) => r.report);

describe('severity', () => {
  it('passes with warnings when only warn rules fail, and each finding says its severity', async () => {
    const c = contract(`    - { name: id, type: int64, required: true }
    - { name: status, type: string, severity: warn, enum: [a], required: true }
    - { name: note, type: string, severity: { length: warn }, max_length: 2 }`);
    const report = await run(c, 'id,status,note\n1,a,ok\n2,b,long\n3,,x\n');
    expect(report.status).toBe('warn');
    expect(report.violations.map((v) => [v.rule, v.column, v.severity, v.count])).toEqual([
      ['required', 'status', 'warning', 1], ['enum', 'status', 'warning', 1], ['length', 'note', 'warning', 1],
    ]);
  });

  it('fails when a warn rule and an error rule both fail, keeping each severity', async () => {
    const c = contract(`    - { name: id, type: int64, required: true }
    - { name: status, type: string, severity: { enum: warn }, enum: [a], required: true }`);
    const report = await run(c, 'id,status\n1,b\n2,\n');
    expect(report.status).toBe('fail');
    expect(report.violations.map((v) => [v.rule, v.severity])).toEqual([['required', 'error'], ['enum', 'warning']]);
  });

  it('warns about columns the contract does not list with extra_columns: warn, and grain duplicates with schema.severity', async () => {
    const c = contract(`    - { name: id, type: int64, required: true }`, '  grain: [id]\n  extra_columns: warn\n  severity: { grain: warn }');
    const report = await run(c, 'id,extra\n1,x\n1,y\n');
    expect(report.status).toBe('warn');
    expect(report.violations.map((v) => [v.rule, v.severity])).toEqual([['unexpected_column', 'warning'], ['grain', 'warning']]);
  });

  it('--strict makes every warning an error', async () => {
    const c = contract(`    - { name: id, type: int64, required: true }
    - { name: status, type: string, severity: warn, enum: [a] }`, '  extra_columns: warn');
    const report = await run(strictContract(c), 'id,status,extra\n1,b,x\n');
    expect(report.status).toBe('fail');
    expect(report.violations.map((v) => [v.rule, v.severity])).toEqual([['unexpected_column', 'error'], ['enum', 'error']]);
  });
});

describe('freshness with warn_lag_hours', () => {
  const c = contractFrom(`name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  columns:
    - { name: at, type: timestamp, required: true }
sla:
  freshness_column: at
  warn_lag_hours: 6
  max_lag_hours: 24
`);
  const data = 'at\n2026-11-30T00:00:00Z\n';

  it('is silent within warn_lag_hours, a warning past it, an error past max_lag_hours', async () => {
    expect((await run(c, data, Date.parse('2026-11-30T05:00:00Z'))).status).toBe('pass');
    const late = await run(c, data, Date.parse('2026-11-30T07:00:00Z'));
    expect(late.status).toBe('warn');
    expect(late.violations).toEqual([expect.objectContaining({ rule: 'freshness', severity: 'warning', message: expect.stringContaining('7.0 hours before 2026-11-30T07:00:00.000Z; the contract warns past 6') })]);
    const stale = await run(c, data, Date.parse('2026-12-01T01:00:00Z'));
    expect(stale.status).toBe('fail');
    expect(stale.violations.map((v) => [v.rule, v.severity])).toEqual([['freshness', 'error']]);
  });
});
