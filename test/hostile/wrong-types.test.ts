import { isMap, isSeq, parseDocument, type Node } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { cpuTimed } from './cpu-time.js';

/** A contract that uses every key of the format, so every key can be given a wrong value. */
const FULL = `name: orders
version: 1.2.0
status: deprecated
sunset: 2027-01-31
owner:
  team: orders-platform
  notify: [orders-oncall@example.com]
description: One row per order.
produces:
  format: parquet
  partition: "dt={ds}/hr={hh}"
schema:
  grain: [order_id]
  extra_columns: reject
  columns:
    - name: order_id
      type: string
      required: true
      pattern: "^ord_[0-9a-f]{8}$"
      min_length: 12
      max_length: 12
      unique: true
      description: the key
    - name: status
      type: string
      enum: [placed, cancelled]
      default: placed
    - name: refund
      type: "decimal(12,2)"
      min: 0
      max: 1000
      required_when: { column: status, in: [cancelled] }
    - name: updated_at
      type: timestamp
      not_in_future: true
      min: "2020-01-01T00:00:00Z"
sla:
  schedule: hourly
  arrival_by: "00:30"
  timezone: Europe/Berlin
  partition_lag: 1
  grace_minutes: 15
  skip_dates: ["2026-12-25"]
  max_lag_hours: 26
  freshness_column: updated_at
  min_rows: 1
  max_rows: 5000000
consumers:
  - team: finance
    notify: [finance@example.com]
    columns: [order_id, refund]
compat: { mode: full }
`;

const WRONG_VALUES: readonly [string, unknown][] = [
  ['a list', ['x', 1]],
  ['a mapping', { x: 1 }],
  ['a number', 42],
  ['a negative fraction', -0.5],
  ['true', true],
  ['null', null],
  ['an empty string', ''],
  ['a 100 KB string', 'x'.repeat(100_000)],
];

/** Every key path of the contract, as the loader names them in problems: `schema.columns[0].name`. */
function keyPaths(node: Node | null, path: (string | number)[] = []): (string | number)[][] {
  if (isMap(node)) return node.items.flatMap((pair) => [[...path, String((pair.key as { value: unknown }).value)], ...keyPaths(pair.value as Node, [...path, String((pair.key as { value: unknown }).value)])]);
  if (isSeq(node)) return node.items.flatMap((item, i) => [[...path, i], ...keyPaths(item as Node, [...path, i])]);
  return [];
}

function loaderPath(path: (string | number)[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');
}

const base = parseDocument(FULL);
const PATHS = keyPaths(base.contents as Node);

describe('a contract with a wrong value anywhere', () => {
  it('starts from a contract that loads', () => {
    expect(parseContract(FULL, 'contracts/orders.v1.yaml').problems).toEqual([]);
    expect(PATHS.length).toBeGreaterThan(60);
  });

  it.each(WRONG_VALUES)('is reported, positioned, at the key it is under when the value is %s', (_what, value) => {
    const { ms } = cpuTimed(() => {
      for (const path of PATHS) {
        const doc = base.clone();
        doc.setIn(path, value);
        const { contract, problems } = parseContract(doc.toString({ lineWidth: 0 }), 'contracts/orders.v1.yaml');
        for (const problem of problems) {
          expect(problem.line, problem.message).toBeGreaterThanOrEqual(1);
          expect(problem.column, problem.message).toBeGreaterThanOrEqual(1);
        }
        const where = loaderPath(path);
        const errors = problems.filter((p) => p.severity === 'error');
        // Some wrong values are right for some keys (a string description, `true` for unique);
        // a renamed column is reported where it is referred to, and a rule its default no longer
        // passes at the column's default.
        const near = pathOrNeighbour(where);
        const defaultOf = `${/^schema\.columns\[\d+\]/.exec(where)?.[0]}.default`;
        if (errors.length === 0) expect(contract, where).toBeDefined();
        else expect(errors.some((e) => near.test(e.path) || e.code === 'unknown_column' || e.path === defaultOf), `${where}: ${errors.map((e) => e.path)}`).toBe(true);
      }
    });
    expect(ms / PATHS.length).toBeLessThan(100);
  });
});

/**
 * The key itself, a key under it, or (for a value that breaks a cross-field rule, such as an
 * empty notify list or min above max) a key of the same parent.
 */
function pathOrNeighbour(where: string): RegExp {
  const parent = where.replace(/(\.[^.[\]]+|\[\d+\])$/, '');
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(${escape(where)}|${escape(parent)})([.[]|$)`);
}
