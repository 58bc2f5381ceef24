import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EXPORT_TARGETS, exportContract, isExportTarget } from '../../lib/export/export-contract.js';
import { ordersContract } from '../fixtures/partition.js';

describe('exportContract', () => {
  it('knows the targets odcs, jsonschema, dbt and sql, and no others', () => {
    expect(EXPORT_TARGETS).toEqual(['odcs', 'jsonschema', 'dbt', 'sql']);
    expect(isExportTarget('avro')).toBe(false);
  });

  it('writes the orders contract as an ODCS v3 data contract for the odcs target', () => {
    const odcs = parse(exportContract(ordersContract(), 'odcs')) as Record<string, unknown>;
    expect(odcs).toMatchObject({ apiVersion: 'v3.1.0', kind: 'DataContract', name: 'orders', version: '1.2.0' });
  });

  it.each(EXPORT_TARGETS)('ends the %s export with a newline, as a file should', (target) => {
    expect(exportContract(ordersContract(), target)).toMatch(/[^\n]\n$/);
  });
});
