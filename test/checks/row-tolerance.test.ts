import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import type { Contract } from '../../lib/contract/model.js';
import { contractFrom, memoryFile, NEXT_MORNING } from '../fixtures/partition.js';

function eventsContract(onViolation: string, extra = ''): Contract {
  return contractFrom(`name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
${onViolation}
schema:
  grain: [id]
  columns:
    - { name: id, type: int64, required: true }
    - { name: status, type: string, required: true, enum: [a, b] }
    - { name: amount, type: float64, min: 0${extra} }
`);
}

const TOLERANT = 'on_violation: { row_tolerance: 0.1 }';

function csv(rows: readonly string[]): string {
  return `id,status,amount\n${rows.join('\n')}\n`;
}

const run = (contract: Contract, ...files: string[]) => runChecks(buildCheckPlan(contract, NEXT_MORNING), files.map((text, i) => memoryFile(`part-${i}.csv`, text)));

describe('row tolerance in the engine', () => {
  it('withholds each invalid row once, with every rule it broke, across files, and only within the tolerance', async () => {
    const a = csv(['1,a,1', '2,x,-1', '3,b,2', '4,a,3', '5,a,4']);
    const b = csv(['6,a,1', '7,b,oops', '8,a,2', '9,a,3', '10,b,4']);
    const { report, withheld } = await run(eventsContract(TOLERANT), a, b);
    expect(report.status).toBe('fail');
    expect(report.tolerance).toEqual({ invalid_rows: 2, allowed_rows: 1, tolerance: '10%', withheld: false });
    expect(withheld).toBeUndefined();
    const looser = await run(eventsContract('on_violation: { max_invalid_rows: 2 }'), a, b);
    expect(looser.report.status).toBe('warn');
    expect(looser.report.tolerance).toMatchObject({ invalid_rows: 2, allowed_rows: 2, withheld: true });
    expect(looser.withheld?.map((w) => ({ file: w.fileIndex, rows: w.list.rows, rules: w.list.reasons.map((r) => r.map((x) => `${x.rule} ${x.column}`)) }))).toEqual([
      { file: 0, rows: [1], rules: [['enum status', 'min amount']] },
      { file: 1, rows: [1], rules: [['type amount']] },
    ]);
  });

  it('fails the batch on any batch-level error, whatever the tolerance', async () => {
    const duplicated = csv(['1,a,1', '1,a,2', '3,x,3', '4,a,4', '5,a,5', '6,a,6', '7,a,7', '8,a,8', '9,a,9', '10,a,10']);
    const { report, withheld } = await run(eventsContract('on_violation: { row_tolerance: 0.5 }'), duplicated);
    expect(report.status).toBe('fail');
    expect(report.violations.map((v) => v.rule)).toEqual(['enum', 'grain']);
    expect(report.tolerance).toBeUndefined();
    expect(withheld).toBeUndefined();
  });

  it('does not withhold rows that break only a warn rule', async () => {
    const contract = eventsContract(TOLERANT, ', severity: warn');
    const { report, withheld } = await run(contract, csv(['1,a,-1', '2,a,-2', '3,b,1']));
    expect(report.status).toBe('warn');
    expect(report.violations).toEqual([expect.objectContaining({ rule: 'min', severity: 'warning', count: 2 })]);
    expect(withheld).toBeUndefined();
  });

  it('without on_violation one invalid row fails the batch', async () => {
    const { report } = await run(eventsContract(''), csv(['1,a,1', '2,x,1']));
    expect(report.status).toBe('fail');
    expect(report.tolerance).toBeUndefined();
  });
});
