import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { loadContractDirectory } from '../../lib/storage/contract-directory.js';

const DEFAULTS = { notify: ['data-oncall@example.com'], format: 'csv' as const, partition: 'dt={ds}/hr={hh}' };
const ODCS = [
  'apiVersion: v3.0.2', 'kind: DataContract', 'id: 53581432-6c55-4ba2-a65f-72344a91553a', 'version: 1.0.0', 'status: draft',
  'schema:', '  - name: orders', '    properties:', '      - name: order_id', '        logicalType: string', '      - name: oid', '        physicalType: BFILE',
  'slaProperties:', '  - property: latency', '    value: 500ms', '  - property: retention', '    value: 3', '    unit: y',
].join('\n') + '\n';

describe('contract defaults', () => {
  it('fill what an ODCS contract leaves out, each with a warning; ODCS shapes the gate does not enforce are warnings', () => {
    const { contract, problems } = parseContract(ODCS, 'orders.odcs.yaml', { defaults: DEFAULTS });
    expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(contract).toMatchObject({ name: 'orders', status: 'active', owner: { team: 'unassigned', notify: DEFAULTS.notify }, produces: { format: 'csv', partition: 'dt={ds}/hr={hh}' } });
    expect(contract?.schema.columns.map((c) => c.name)).toEqual(['order_id']);
    expect(problems.map((p) => [p.code, p.path])).toEqual([
      ['missing_key', 'name'], ['default_used', 'team'], ['default_used', 'team'], ['default_used', 'servers'], ['default_used', 'servers'],
      ['invalid_value', 'status'], ['rule_not_for_type', 'schema[0].properties[1]'], ['rule_not_for_type', 'slaProperties[0]'], ['rule_not_for_type', 'slaProperties[1]'],
    ]);
  });

  it('without defaults the same contract is refused, the message naming the default to pass', () => {
    const { contract, problems } = parseContract(ODCS, 'orders.odcs.yaml');
    expect(contract).toBeUndefined();
    expect(problems.filter((p) => p.severity === 'error').map((p) => p.message).join('\n')).toMatch(/--default-notify[\s\S]*--default-format/);
  });

  it('fill a native contract\'s missing notify and format, and never override what it says', () => {
    const native = 'name: orders\nversion: 1.0.0\nowner: { team: t }\nproduces: { partition: "dt={ds}" }\nschema:\n  columns:\n    - { name: id, type: string }\n';
    const { contract, problems } = parseContract(native, 'orders.v1.yaml', { defaults: DEFAULTS });
    expect(contract).toMatchObject({ owner: { team: 't', notify: DEFAULTS.notify }, produces: { format: 'csv', partition: 'dt={ds}' } });
    expect(problems.map((p) => [p.severity, p.code, p.path, p.line])).toEqual([['warning', 'default_used', 'owner.notify', 3], ['warning', 'default_used', 'produces.format', 4]]);
    expect(parseContract(native.replace('{ team: t }', '{ team: t, notify: [me@example.com] }'), 'orders.v1.yaml', { defaults: DEFAULTS }).contract?.owner.notify).toEqual(['me@example.com']);
  });

  describe('loadContractDirectory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'contract-defaults-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('passes the defaults to every contract and their warnings to warn', async () => {
      writeFileSync(join(dir, 'orders.v1.odcs.yaml'), ODCS);
      await expect(loadContractDirectory(dir)).rejects.toThrow(/needs an address to page/);
      const warnings: string[] = [];
      const registry = await loadContractDirectory(dir, { defaults: DEFAULTS, warn: (t) => warnings.push(t) });
      expect(registry.all().map((c) => c.name)).toEqual(['orders']);
      expect(warnings.join('')).toContain('default_used');
    });
  });
});
