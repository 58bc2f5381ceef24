import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { formatProblem } from '../../lib/contract/problems.js';

const withColumn = (column: string, grain = '[id]') => `name: trips
version: 1.0.0
owner: { team: taxi, notify: [taxi@example.com] }
produces: { format: parquet }
schema:
  grain: ${grain}
  columns:
    - { name: id, type: int64, required: true }
    - ${column}
`;

const errors = (column: string, grain?: string) => parseContract(withColumn(column, grain), 'trips.v1.yaml').problems.filter((p) => p.severity === 'error').map(formatProblem);

describe('a column default: what rows without the column read as', () => {
  it('loads when it is a value of the column type its rules accept', () => {
    expect(errors('{ name: zone, type: string, enum: [n, s], default: n }')).toEqual([]);
    expect(errors('{ name: fare, type: "decimal(8,2)", min: 0, default: 2.5 }')).toEqual([]);
    expect(errors('{ name: seen, type: timestamp, default: "2026-01-01T00:00:00Z" }')).toEqual([]);
  });

  it('is refused, at its position, when it is not a value of the column type', () => {
    expect(errors('{ name: fare, type: int64, default: "zero" }')).toEqual(['trips.v1.yaml:9:43 error [invalid_value] schema.columns[1].default: expected a default of type int64 (a whole number), found "zero"']);
    expect(errors('{ name: fare, type: "decimal(4,2)", default: 123.5 }')[0]).toContain('(at most 2 digits before the point and 2 after), found 123.5');
    expect(errors('{ name: day, type: date, default: tomorrow }')[0]).toContain('an ISO-8601 date such as "2026-01-01"');
  });

  it('is refused when the column rules would reject it in every row', () => {
    expect(errors('{ name: zone, type: string, enum: [n, s], default: x }')[0]).toContain('the default "x" is not one of the column\'s enum values [n, s]');
    expect(errors('{ name: fare, type: float64, min: 0, default: -1 }')[0]).toContain('the default -1 is below the column\'s min');
    expect(errors('{ name: code, type: string, pattern: "^[A-Z]{3}$", default: abc }')[0]).toContain('does not match the column\'s pattern');
  });

  it('is refused on a key, whose rows would all repeat it', () => {
    expect(errors('{ name: zone, type: string, unique: true, default: n }')[0]).toContain('a column that is unique cannot have a default');
    expect(errors('{ name: zone, type: string, default: n }', '[id, zone]')[0]).toContain('a column that is part of the grain cannot have a default');
  });
});
