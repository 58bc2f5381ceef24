import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { exportOdcs } from '../../lib/odcs/to-odcs.js';
import { comparablePlan, EVERY_FEATURE, VARIANTS } from './fixtures.js';

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
