import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { exportJsonSchema } from '../../lib/export/to-json-schema.js';
import { importContract } from '../../lib/import/import-contract.js';
import { contractFrom } from '../fixtures/partition.js';

function imported(text: string) {
  const result = importContract(text, 'row.schema.json', { from: 'auto' });
  expect(result.problems.filter((p) => p.severity === 'error').map((p) => p.message)).toEqual([]);
  const loaded = parseContract(result.text!, result.fileName!);
  expect(loaded.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return { contract: loaded.contract!, text: result.text!, warnings: result.problems.filter((p) => p.severity === 'warning').map((p) => `${p.path} ${p.message}`) };
}

const RIDES = contractFrom(`
name: rides
version: 3.1.0
owner: { team: t, notify: [t@example.com] }
produces: { format: jsonl, partition: "dt={ds}/hr={hh}" }
schema:
  grain: [ride_id]
  extra_columns: reject
  columns:
    - { name: ride_id, type: int64, min: 1, max: 9223372036854775807 }
    - { name: fare, type: "decimal(10,2)", required: true, min: 0, description: The metered fare. }
    - { name: status, type: string, enum: [done, void], severity: { enum: warn } }
    - { name: refund, type: float32, required_when: { column: status, in: [void] } }
    - { name: at, type: timestamp_ntz, max: "2030-01-01T00:00:00", not_in_future: true }
    - { name: zone, type: string, default: unknown, pattern: "^[a-z]+$" }
`);

describe('import of a JSON Schema that export --to jsonschema wrote', () => {
  const { contract, text, warnings } = imported(exportJsonSchema(RIDES));
  const column = (name: string) => contract.schema.columns.find((c) => c.name === name)!;

  it('reads the contract\'s own terms back: name, version, format, partition, grain, extra columns', () => {
    expect([contract.name, contract.version.text, contract.produces, contract.schema.grain, contract.schema.extraColumns]).toEqual(['rides', '3.1.0', { format: 'jsonl', partition: 'dt={ds}/hr={hh}' }, ['ride_id'], 'reject']);
    // Only whom the contract belongs to is left to fill in: JSON Schema has no word for it.
    expect(warnings).toEqual([' the source names no owner team: set owner.team', expect.stringMatching(/^ the source names no one to page/)]);
  });

  it('takes each column\'s type from its terms, not from the JSON forms its values may take', () => {
    expect(contract.schema.columns.map((c) => c.typeText)).toEqual(['int64', 'decimal(10,2)', 'string', 'float32', 'timestamp_ntz', 'string']);
    // The digit patterns of int64 and decimal strings are the type's shape, no rule of the column.
    expect(column('ride_id').pattern).toBeUndefined();
    expect(column('fare').pattern).toBeUndefined();
  });

  it('reads the bounds the contract wrote, not the type\'s limits, and writes an int64 bound exactly', () => {
    expect(column('ride_id')).toMatchObject({ min: 1, max: 2 ** 63 });
    expect(column('fare').max).toBeUndefined();
    expect(text).toContain('max: 9223372036854775807');
    expect(text).not.toContain('9223372036854776000');
  });

  it('reads rules at warn, required_when, defaults, descriptions and the rules of many rows', () => {
    expect(column('status')).toMatchObject({ enum: ['done', 'void'], severity: { enum: 'warn' } });
    expect(column('refund').requiredWhen).toEqual({ column: 'status', in: ['void'] });
    expect(column('at')).toMatchObject({ max: Date.parse('2030-01-01T00:00:00Z'), notInFuture: true });
    expect(column('zone')).toMatchObject({ default: 'unknown', pattern: '^[a-z]+$', required: false });
    expect(column('fare')).toMatchObject({ required: true, min: 0, description: 'The metered fare.' });
  });
});

describe('import of a JSON Schema written by hand', () => {
  it('reads an if/then of the export\'s shape as required_when', () => {
    const schema = {
      type: 'object',
      properties: { status: { type: 'string' }, refund: { type: ['number', 'null'] } },
      allOf: [{ if: { properties: { status: { enum: ['void'] } }, required: ['status'] }, then: { properties: { refund: { not: { type: 'null' } } }, required: ['refund'] } }],
    };
    const { contract } = imported(JSON.stringify(schema));
    expect(contract.schema.columns[1]).toMatchObject({ name: 'refund', type: { kind: 'float64' }, requiredWhen: { column: 'status', in: ['void'] } });
  });

  it('keeps any other allOf item as a warning and a comment', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } }, allOf: [{ anyOf: [{ required: ['a'] }] }] };
    const { text, warnings } = imported(JSON.stringify(schema));
    expect(warnings).toContainEqual(expect.stringMatching(/^allOf\[0\] schema condition allOf\[0\]/));
    expect(text).toContain('# not enforced: schema condition allOf[0]');
  });

  it('still refuses a property of several types that does not name its column type', () => {
    const result = importContract(JSON.stringify({ type: 'object', properties: { a: { anyOf: [{ type: 'number' }, { type: 'string' }] } } }), 'row.schema.json', { from: 'auto' });
    expect(result.text).toBeUndefined();
    expect(result.problems.map((p) => p.message)).toContainEqual(expect.stringContaining('property "a" has no single type'));
  });
});
