import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseContract } from '../../lib/contract/load-contract.js';
import { exportOdcs } from '../../lib/odcs/to-odcs.js';
import { EVERY_FEATURE, VARIANTS, withRuleKeys } from './fixtures.js';
import { ODCS_PRESENT, odcsValidator } from './odcs-schema.js';

const CONTRACTS: [string, string][] = [
  ['contracts/orders.v1.yaml', readFileSync('contracts/orders.v1.yaml', 'utf8')],
  ['every feature', EVERY_FEATURE],
  ...Object.entries(VARIANTS),
];

// Without ../shared/odcs (a plain clone) there is no official schema to validate against.
describe.skipIf(!ODCS_PRESENT)('exported contracts against the official ODCS v3.1.0 JSON Schema', () => {
  const validate = ODCS_PRESENT ? odcsValidator() : undefined;

  it.each(CONTRACTS)('%s exports a valid document', (_name, text) => {
    const { contract } = parseContract(text, 'contract.yaml');
    const document: unknown = parse(exportOdcs(contract!));
    expect(validate!(document), JSON.stringify(validate!.errors, null, 2)).toBe(true);
  });

  it.each(['share', 'count'] as const)('a contract with every rule key of issue 17 (tolerance as a %s) exports a valid document', (variant) => {
    const { contract } = parseContract(EVERY_FEATURE, 'contract.yaml');
    const document: unknown = parse(exportOdcs(withRuleKeys(contract!, variant)));
    expect(validate!(document), JSON.stringify(validate!.errors, null, 2)).toBe(true);
  });

  it('is not vacuous: an option ODCS does not allow for the logical type fails it', () => {
    const { contract } = parseContract(EVERY_FEATURE, 'contract.yaml');
    const document = parse(exportOdcs(contract!)) as { schema: { properties: { logicalTypeOptions?: object }[] }[] };
    document.schema[0]!.properties[0]!.logicalTypeOptions = { minimum: 1 };
    expect(validate!(document)).toBe(false);
    expect(validate!({ apiVersion: 'v3.1.0', kind: 'DataContract', id: 'x', version: '1.0.0', status: 'active', team: { members: [{ username: 'a', dateIn: 'soon' }] } })).toBe(false);
  });
});
