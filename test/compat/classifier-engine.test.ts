import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { formatFinding, runTrial, type Finding } from './classifier-engine.js';

// The fixed share run by `npm test`; `npm run test:compat -- --seeds 10000` runs the long one.
const SEEDS = 400;

describe('the change classifier against the engine (generated contract pairs and data)', () => {
  it(`agrees on ${SEEDS} seeds: data a side promises is accepted by the other side as the mode says`, async () => {
    const findings: Finding[] = [];
    const judged = new Map<string, number>();
    for (let seed = 1; seed <= SEEDS; seed++) {
      const result = await runTrial(seed);
      findings.push(...result.findings);
      if (result.judged > 0) for (const id of new Set(result.compatible)) judged.set(id, (judged.get(id) ?? 0) + 1);
    }
    expect(findings.map(formatFinding)).toEqual([]);
    // The property is only as good as the edits it judges: the ones the issue was about must be among them.
    for (const id of ['column_added', 'became_optional', 'default_changed', 'type_widened', 'range_loosened']) {
      expect(judged.get(id) ?? 0, `${id} judged compatible in some trial`).toBeGreaterThan(0);
    }
  });
});

const V1 = `name: trips
version: 1.0.0
owner: { team: taxi, notify: [taxi@example.com] }
produces: { format: csv, partition: "dt={ds}" }
schema:
  grain: [vendor_id, trip_seq]
  columns:
    - { name: vendor_id, type: int32, required: true }
    - { name: trip_seq, type: int64, required: true }
    - { name: fare_amount, type: "decimal(10,2)", required: true, min: 0 }
compat: { mode: backward }
`;

const load = (text: string): Contract => {
  const { contract, problems } = parseContract(text, `trips.v${/version: (\d+)/.exec(text)![1]}.yaml`);
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return contract!;
};

async function judge(contract: Contract, csv: string) {
  const bytes = new TextEncoder().encode(csv);
  const file = { path: 'part-0.csv', byteLength: bytes.byteLength, open: async () => ({ source: byteSourceFromBytes(bytes), close: async () => {} }) };
  return (await runChecks(buildCheckPlan(contract, Date.UTC(2026, 11, 5)), [file])).report;
}

const UNCHANGED_DATA = 'vendor_id,trip_seq,fare_amount\n1,1,12.50\n1,2,7.00\n2,1,30.25\n';

describe('an optional column added in a minor version', () => {
  it('is called non-breaking and the next drop of unchanged data passes, with a note', async () => {
    const v11 = load(V1.replace('1.0.0', '1.1.0').replace('min: 0 }', 'min: 0 }\n    - { name: do_zone, type: string }'));
    const diff = diffContracts(load(V1), v11);
    expect(diff.changes.map((c) => [c.change, c.class])).toEqual([['column_added', 'non-breaking']]);
    const report = await judge(v11, UNCHANGED_DATA);
    expect(report.status).toBe('pass');
    expect(report.notes).toEqual(['column do_zone is not in the file: its rows were read as nulls']);
  });

  it('with a default, reads as the default, which the column rules judge', async () => {
    const v11 = load(V1.replace('1.0.0', '1.1.0').replace('min: 0 }', 'min: 0 }\n    - { name: payment, type: string, required: true, enum: [card, cash], default: card }'));
    expect(diffContracts(load(V1), v11).changes.map((c) => [c.change, c.class])).toEqual([['column_added', 'non-breaking']]);
    const report = await judge(v11, UNCHANGED_DATA);
    expect(report.status).toBe('pass');
    expect(report.notes).toEqual(['column payment is not in the file: its rows were read as its default "card"']);
  });

  it('still fails a required column without a default as missing_column', async () => {
    const v2 = load(V1.replace('1.0.0', '2.0.0').replace('min: 0 }', 'min: 0 }\n    - { name: payment, type: string, required: true }'));
    expect(diffContracts(load(V1), v2).changes.map((c) => [c.change, c.class])).toEqual([['column_added', 'breaking']]);
    const report = await judge(v2, UNCHANGED_DATA);
    expect(report.violations.map((v) => [v.rule, v.column, v.count])).toEqual([['missing_column', 'payment', 1]]);
  });

  it('counts required_when rows of an absent column as missing values', async () => {
    const contract = load(V1.replace('min: 0 }', 'min: 0 }\n    - { name: tip, type: "decimal(10,2)", required_when: { column: vendor_id, in: [2] } }'));
    const report = await judge(contract, UNCHANGED_DATA);
    expect(report.violations.map((v) => [v.rule, v.column, v.count, v.samples.map((s) => s.row)])).toEqual([['required', 'tip', 1, [2]]]);
  });
});

describe('reference rows, classified and then judged by the engine', () => {
  const REFERENCE = 'compat: { mode: backward }\nreference_rows:\n  - { key: { vendor_id: 1, trip_seq: 2 }, expect: { fare_amount: 7.00 }, required: true }\n';
  const withReference = (text: string, version: string) => load(text.replace('1.0.0', version).replace('compat: { mode: backward }\n', REFERENCE));

  it('a reference row added is breaking, and the old version\'s valid data without its key now fails', async () => {
    const v2 = withReference(V1, '2.0.0');
    expect(diffContracts(load(V1), v2).changes.map((c) => [c.change, c.class])).toEqual([['reference_row_added', 'breaking']]);
    const report = await judge(v2, UNCHANGED_DATA.replace('1,2,7.00\n', ''));
    expect(report.violations.map((v) => [v.rule, v.message])).toEqual([['reference_missing', 'reference row vendor_id=1, trip_seq=2 is required, and no row of the partition has that key']]);
    expect((await judge(v2, UNCHANGED_DATA)).status).toBe('pass');
  });

  it('an expected value changed (pre-tax to post-tax) is breaking, and data with the old meaning now fails', async () => {
    const v1 = withReference(V1, '1.0.0');
    const v2 = load(V1.replace('1.0.0', '2.0.0').replace('compat: { mode: backward }\n', REFERENCE.replace('7.00', '7.56')));
    expect(diffContracts(v1, v2).changes.map((c) => [c.change, c.class])).toEqual([['reference_row_changed', 'breaking']]);
    expect((await judge(v1, UNCHANGED_DATA)).status).toBe('pass');
    const report = await judge(v2, UNCHANGED_DATA);
    expect(report.violations.map((v) => [v.rule, v.column, v.message])).toEqual([['reference_value', 'fare_amount', 'reference row vendor_id=1, trip_seq=2: fare_amount is "7.00", expected "7.56"']]);
  });

  it('a tolerance widened is non-breaking in compat.mode backward, and what the old version accepted still passes', async () => {
    const v1 = withReference(V1, '1.0.0');
    const v11 = load(V1.replace('1.0.0', '1.1.0').replace('compat: { mode: backward }\n', REFERENCE.replace('fare_amount: 7.00', 'fare_amount: { value: 7.00, relative: 0.1 }')));
    expect(diffContracts(v1, v11).changes.map((c) => [c.change, c.class])).toEqual([['reference_row_changed', 'non-breaking']]);
    expect((await judge(v11, UNCHANGED_DATA)).status).toBe('pass');
    expect((await judge(v11, UNCHANGED_DATA.replace('1,2,7.00', '1,2,7.56'))).status).toBe('pass');
  });
});
