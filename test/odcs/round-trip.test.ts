import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { exportContract } from '../../lib/export/export-contract.js';
import { exportOdcs } from '../../lib/odcs/to-odcs.js';
import { comparablePlan, EVERY_FEATURE, VARIANTS, withRuleKeys } from './fixtures.js';

const NOW = Date.parse('2026-11-30T12:00:00Z');

function load(text: string, file: string): Contract {
  const { contract, problems } = parseContract(text, file);
  expect(problems).toEqual([]);
  return contract!;
}

const CASES: [string, string, string][] = [
  ['contracts/orders.v1.yaml', readFileSync('contracts/orders.v1.yaml', 'utf8'), 'orders.v1.yaml'],
  ['a contract using every feature', EVERY_FEATURE, 'shipments.v2.yaml'],
  ...Object.entries(VARIANTS).map(([name, text]): [string, string, string] => [name, text, 'variant.yaml']),
  ['reference rows', `${readFileSync('contracts/orders.v1.yaml', 'utf8')}reference_rows:
  - key: { order_id: ord_00001001 }
    expect: { amount: { value: 100.00, absolute: 0.01, relative: 0.001 }, status: paid, ordered_at: "2026-11-29T10:00:00Z" }
    required: true
    description: the known test order, pre-tax
  - { key: { order_id: ord_00001002 }, expect: { refund_amount: 0.5, coupon: "0042" }, severity: warn }
`, 'orders.v1.yaml'],
];

describe('native → ODCS → native', () => {
  it.each(CASES)('%s comes back as the same contract with the same check plan', (_name, text, file) => {
    const original = load(text, file);
    const odcs = exportOdcs(original);
    const back = load(odcs, file.replace(/\.yaml$/, '.odcs.yaml'));
    expect(comparablePlan(buildCheckPlan(back, NOW))).toEqual(comparablePlan(buildCheckPlan(original, NOW)));
    expect(back).toEqual(original);
    // A second trip changes nothing: the export is a fixed point.
    expect(exportOdcs(back)).toBe(odcs);
  });

  it('is read through parseContract because of kind and apiVersion, and stays ODCS on the way out', () => {
    const odcs = exportOdcs(load(EVERY_FEATURE, 'shipments.v2.yaml'));
    expect(odcs).toMatch(/^apiVersion: v3\.1\.0\nkind: DataContract\nid: shipments-v2\n/);
    // ODCS cannot say these; they travel as contractGate.* custom properties.
    for (const key of ['partition', 'compat', 'notify', 'sla', 'consumers', 'extraColumns', 'requiredWhen', 'notInFuture', 'default']) {
      expect(odcs).toContain(`property: contractGate.${key}\n`);
    }
    expect(odcs).toContain('value: "00:45"'); // YAML 1.1 readers would take 00:45 for a number
    expect(odcs).toContain('- "no"');
  });
});

describe('native → ODCS → native with severities, tolerances, references and history checks', () => {
  const original = (variant: 'share' | 'count') => withRuleKeys(load(EVERY_FEATURE, 'shipments.v2.yaml'), variant);

  it.each(['share', 'count'] as const)('comes back as the same contract with the same check plan (tolerance as a %s)', (variant) => {
    const contract = original(variant);
    const odcs = exportOdcs(contract);
    const back = load(odcs, 'shipments.v2.odcs.yaml');
    expect(back).toEqual(contract);
    expect(comparablePlan(buildCheckPlan(back, NOW))).toEqual(comparablePlan(buildCheckPlan(contract, NOW)));
    expect(exportOdcs(back)).toBe(odcs);
  });

  it('says in ODCS terms what ODCS can say: warning quality rules, rowCount bounds and a property relationship', () => {
    const document = parse(exportOdcs(original('share'))) as OdcsDocument;
    const object = document.schema[0]!;
    const property = (name: string) => object.properties.find((p) => p.name === name)!;
    expect(property('carrier').quality).toEqual([{ metric: 'invalidValues', arguments: { validValues: ['dhl', 'ups', 'no'] }, mustBe: 0, unit: 'rows', severity: 'warning' }]);
    // The enum's severity is the quality rule's; contractGate.severity holds only what no rule carries.
    expect(property('carrier').customProperties).toBeUndefined();
    expect(property('tracking_code').relationships).toEqual([{ type: 'foreignKey', to: 'carriers.tracking_code' }]);
    expect(property('tracking_code').customProperties).toEqual([{ property: 'contractGate.severity', value: { references: 'warn' } }]);
    expect(property('leg').customProperties).toEqual([{ property: 'contractGate.severity', value: 'warn' }]);
    expect(property('cancel_reason').relationships).toBeUndefined();
    expect(property('cancel_reason').customProperties).toContainEqual({ property: 'contractGate.references', value: { contract: 'cancel-reasons', column: 'code', major: 2, partition: 'dt=2026-11-30' } });
    // Bounds of different severities are two rules.
    expect(object.quality).toEqual([
      { metric: 'rowCount', unit: 'rows', mustBeGreaterOrEqualTo: 10, severity: 'warning' },
      { metric: 'rowCount', unit: 'rows', mustBeLessOrEqualTo: 200000 },
    ]);
    expect(object.customProperties).toContainEqual({ property: 'contractGate.severity', value: { grain: 'warn', extra_columns: 'warn' } });
    expect(document.customProperties).toContainEqual({ property: 'contractGate.onViolation', value: { rowTolerance: 0.02 } });
    const sla = document.customProperties.find((c) => c.property === 'contractGate.sla')?.value as Record<string, unknown>;
    expect(sla).toMatchObject({ warnLagHours: 2, volumeVsHistory: { lookback: 14, minRatio: 0.5, maxRatio: 2 }, severity: { volume_vs_history: 'warn', freshness: 'warn' } });
  });
});

interface OdcsDocument {
  schema: { properties: { name: string; quality?: unknown[]; relationships?: unknown[]; customProperties?: unknown[] }[]; quality?: unknown[]; customProperties: unknown[] }[];
  customProperties: { property: string; value: unknown }[];
}

describe('native → ODCS → native with bounds past 2^53', () => {
  it('writes int64 bounds as the exact integers the gate compares with, and reads back the same contract', () => {
    const original = load(yamlOf('{ name: id, type: int64, min: -9223372036854775808, max: 9223372036854775807 }', '{ name: seq, type: int64, max: 9007199254740993 }'), 'ids.v1.yaml');
    const odcs = exportOdcs(original);
    expect(odcs).toContain('minimum: -9223372036854775808');
    expect(odcs).toContain('maximum: 9223372036854775807');
    // The loader keeps 9007199254740993 to its last digit, the bound the gate compares with.
    expect(odcs).toContain('maximum: 9007199254740993');
    expect(odcs).not.toContain('9223372036854776000');
    expect(load(odcs, 'ids.v1.odcs.yaml')).toEqual(original);
  });

  it('writes decimal bounds past 15 digits to their last digit, and reads back the same contract', () => {
    const original = load(yamlOf('{ name: amount, type: "decimal(27,2)", min: -9173526217381501225882943.61, max: 1000000.01 }'), 'ids.v1.yaml');
    const odcs = exportOdcs(original);
    expect(odcs).toContain('minimum: -9173526217381501225882943.61');
    expect(odcs).toContain('maximum: 1000000.01');
    expect(load(odcs, 'ids.v1.odcs.yaml')).toEqual(original);
  });

  it('writes timestamp bounds past the millisecond to their last digit, in ODCS and in dbt, and reads back the same contract', () => {
    const original = load(yamlOf('{ name: at, type: timestamp, max: "9509-02-28T12:09:21.780522Z" }', '{ name: local, type: timestamp_ntz, min: "1969-12-31T23:59:59.999999999" }'), 'ids.v1.yaml');
    const odcs = exportOdcs(original);
    expect(odcs).toContain('9509-02-28T12:09:21.780522Z');
    expect(odcs).toContain('1969-12-31T23:59:59.999999999');
    expect(load(odcs, 'ids.v1.odcs.yaml')).toEqual(original);
    const dbt = exportContract(original, 'dbt');
    expect(dbt).toContain("max_value: \"'9509-02-28T12:09:21.780522Z'\"");
    expect(dbt).toContain("min_value: \"'1969-12-31T23:59:59.999999999'\"");
  });
});

function yamlOf(...columns: string[]): string {
  return ['name: ids', 'version: 1.0.0', 'owner: { team: t, notify: [t@example.com] }', 'produces: { format: jsonl }', 'schema:', '  columns:', ...columns.map((c) => `    - ${c}`), ''].join('\n');
}
