import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import type { PlanFacts } from '../../lib/checks/plan-facts.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import { medianOf } from '../../lib/checks/volume-history.js';
import { contractFrom, memoryFile, NEXT_MORNING } from '../fixtures/partition.js';

const contract = contractFrom(`name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  columns:
    - { name: id, type: int64 }
sla:
  volume_vs_history: { lookback: 4, min_ratio: 0.9, max_ratio: 2 }
`);

const rows = (n: number) => `id\n${Array.from({ length: n }, (_, i) => i).join('\n')}\n`;
const history = (...counts: number[]): PlanFacts => ({ history: { source: 'lake/published/events/v1/', partitions: counts.map((r, i) => ({ partition: `dt=2026-11-${String(28 - i).padStart(2, '0')}`, rows: r })) } });
const run = (n: number, facts: PlanFacts) => runChecks(buildCheckPlan(contract, NEXT_MORNING, facts), [memoryFile('p.csv', rows(n))]).then((r) => r.report);

describe('volume_vs_history', () => {
  it('fails a partition below min_ratio times the median of the last lookback partitions, naming them', async () => {
    const report = await run(40, history(100, 90, 110, 100, 1));
    expect(report.status).toBe('fail');
    expect(report.violations).toEqual([{
      rule: 'volume_vs_history', severity: 'error', count: 1,
      message: 'the partition has 40 rows, 0.4 times the median 100 of the last 4 published partitions; the contract expects at least 0.9 times',
      samples: [28, 27, 26, 25].map((d, i) => ({ file: `dt=2026-11-${d}`, row: null, value: [100, 90, 110, 100][i] })),
    }]);
  });

  it('passes within the band and fails above max_ratio', async () => {
    expect((await run(95, history(100, 90, 110, 100))).status).toBe('pass');
    expect((await run(201, history(100, 90, 110, 100))).violations[0]?.message).toContain('expects at most 2 times');
  });

  it('is skipped with a note when fewer than 3 partitions were published, or no lake was read', async () => {
    const short = await run(1, history(100, 100));
    expect(short.status).toBe('pass');
    expect(short.notes).toEqual(['volume_vs_history was skipped: 2 published partitions under lake/published/events/v1/; it needs at least 3']);
    expect((await run(1, {})).notes).toEqual(['volume_vs_history was not checked: no lake was given to read the published history from']);
  });

  it('takes the median of an even count as the mean of the middle two', () => {
    expect(medianOf([4, 1, 3, 2])).toBe(2.5);
    expect(medianOf([5])).toBe(5);
  });
});
