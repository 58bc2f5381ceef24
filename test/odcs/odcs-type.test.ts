import { describe, expect, it } from 'vitest';
import { mapOdcsType, type TypeHints } from '../../lib/odcs/odcs-type.js';

function typeOf(hints: TypeHints): string {
  const mapping = mapOdcsType(hints);
  return mapping.kind === 'type' ? mapping.typeText : mapping.kind;
}

describe('mapOdcsType', () => {
  it.each<[TypeHints, string]>([
    [{ logicalType: 'string' }, 'string'],
    [{ logicalType: 'string', physicalType: 'varchar(18)' }, 'string'],
    [{ logicalType: 'string', physicalType: 'varchar[15]' }, 'string'],
    [{ logicalType: 'string', physicalType: 'bytea' }, 'binary'],
    [{ logicalType: 'string', format: 'binary' }, 'binary'],
    // Widths: without one, the widest, which also takes files of the narrower.
    [{ logicalType: 'integer' }, 'int64'],
    [{ logicalType: 'integer', format: 'i32' }, 'int32'],
    [{ logicalType: 'integer', format: 'u32' }, 'int64'],
    [{ logicalType: 'integer', physicalType: 'int' }, 'int32'],
    [{ logicalType: 'integer', physicalType: 'bigint' }, 'int64'],
    [{ logicalType: 'integer', physicalType: 'int', format: 'i64' }, 'int64'],
    [{ logicalType: 'number', physicalType: 'int' }, 'int32'],
    [{ logicalType: 'number', physicalType: 'serial' }, 'int32'],
    [{ logicalType: 'number' }, 'float64'],
    [{ logicalType: 'number', format: 'f32' }, 'float32'],
    [{ logicalType: 'number', physicalType: 'double' }, 'float64'],
    [{ logicalType: 'number', physicalType: 'float' }, 'float64'],
    [{ logicalType: 'number', physicalType: 'real' }, 'float32'],
    [{ logicalType: 'number', physicalType: 'decimal(12,2)' }, 'decimal(12,2)'],
    [{ logicalType: 'number', physicalType: 'NUMERIC(10)' }, 'decimal(10,0)'],
    [{ logicalType: 'number', physicalType: 'numeric' }, 'decimal(38,18)'],
    [{ logicalType: 'boolean', physicalType: 'bool' }, 'boolean'],
    [{ logicalType: 'date' }, 'date'],
    [{ logicalType: 'date', physicalType: 'timestamp' }, 'timestamp'],
    [{ logicalType: 'timestamp' }, 'timestamp'],
    [{ logicalType: 'timestamp', timezone: false }, 'timestamp_ntz'],
    [{ logicalType: 'timestamp', physicalType: 'timestamp_ntz' }, 'timestamp_ntz'],
    [{ logicalType: 'timestamp', physicalType: 'TIMESTAMP(3) WITH TIME ZONE' }, 'timestamp'],
    [{ logicalType: 'timestamp', physicalType: 'datetime' }, 'timestamp_ntz'],
    [{ physicalType: 'int64' }, 'int64'],
    [{ logicalType: 'object', physicalType: 'json' }, 'unsupported'],
    [{ logicalType: 'array' }, 'unsupported'],
    [{ logicalType: 'time' }, 'unsupported'],
    [{ logicalType: 'string', physicalType: 'struct<a:int>' }, 'unsupported'],
    [{}, 'error'],
    [{ logicalType: 'decimal' }, 'error'],
    [{ physicalType: 'hstore' }, 'unsupported'],
  ])('%j → %s', (hints, expected) => {
    expect(typeOf(hints)).toBe(expected);
  });

  it('notes a physical type it does not know, and one that disagrees with the logical type', () => {
    expect(mapOdcsType({ logicalType: 'string', physicalType: 'Name' })).toMatchObject({ kind: 'type', typeText: 'string', note: expect.stringContaining('"Name" is not a type contract-gate knows') });
    expect(mapOdcsType({ logicalType: 'string', physicalType: 'int' })).toMatchObject({ kind: 'type', typeText: 'int32', note: expect.stringContaining('disagrees with logicalType string') });
  });
});
