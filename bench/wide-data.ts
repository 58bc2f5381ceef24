import type { SchemaElement } from 'hyparquet-writer';
import { applyPlants, duplicateSource, mix32, plantsExpected, STRIDE, type SpreadPlant } from './spread-plants.js';
import { BOOLEAN, DATE, decimal, DOUBLE, INT32, INT64, optional, STRING, TIMESTAMP, type TableChunk, type TableSpec } from './table-spec.js';
import type { CommonViolation } from './violation-set.js';

/**
 * A wide table: 80 columns, ten blocks of eight types, a rule on every column and a planted
 * violation of one of them in every row group (contract: wide-bench.v1.yaml, rendered from this
 * file by wide-contract.ts). Even blocks are required and never null; odd blocks are optional
 * and 10 % null. `int64_0` is the grain, `string_0` is `unique`.
 */
export const WIDE_BLOCKS = 10;
export const WIDE_MAX_ROWS = 500_000;
const KINDS = ['int32', 'int64', 'float64', 'decimal', 'string', 'boolean', 'date', 'timestamp'] as const;
type Kind = (typeof KINDS)[number];

const DAY_MS = 86_400_000;
const DAYS_2020 = Date.UTC(2020, 0, 1) / DAY_MS;
const NOV_1_MS = Date.UTC(2026, 10, 1);
const ENUM = ['alpha', 'beta', 'gamma', 'delta'] as const;

/** One column: its contract line's rules (YAML flow fields), its Parquet type, values and plant. */
export interface WideColumn {
  readonly name: string;
  readonly kind: Kind;
  readonly block: number;
  readonly required: boolean;
  readonly rules: string;
  readonly element: Omit<SchemaElement, 'name'>;
  readonly value: (n: number, h: number) => unknown;
  readonly plant: Omit<SpreadPlant, 'column' | 'offset'>;
}

function column(kind: Kind, block: number): WideColumn {
  const name = `${kind}_${block}`;
  const required = block % 2 === 0 || kind === 'boolean';
  const at = { name, kind, block, required };
  switch (kind) {
    case 'int32': return { ...at, rules: 'min: 0, max: 999999', element: INT32, value: (_, h) => h % 1_000_000, plant: { rule: 'max', value: () => 1_000_000 + block } };
    case 'int64': return block === 0
      ? { ...at, rules: '', element: INT64, value: (n) => BigInt(n), plant: { rule: 'grain', value: (n, rows) => BigInt(duplicateSource(n, rows)) } }
      : { ...at, rules: 'min: 0', element: INT64, value: (_, h) => BigInt(h) * 1000n, plant: { rule: 'min', value: () => -1n } };
    case 'float64': return { ...at, rules: 'min: 0, max: 1', element: DOUBLE, value: (_, h) => (h % 1_000_000) / 1_000_000, plant: { rule: 'max', value: () => 1.5 } };
    case 'decimal': return { ...at, rules: 'min: 0, max: 10000', element: decimal(12, 2), value: (_, h) => (h % 1_000_000) / 100, plant: { rule: 'min', value: () => -0.5 } };
    case 'string': return stringColumn(at);
    case 'boolean': return { ...at, rules: '', element: BOOLEAN, value: (_, h) => (h & 1) === 1, plant: { rule: 'required', value: () => null } };
    case 'date': return { ...at, rules: 'min: "2020-01-01", max: "2026-12-31"', element: DATE, value: (_, h) => DAYS_2020 + (h % 2_400), plant: { rule: 'min', value: () => DAYS_2020 - 1 } };
    case 'timestamp': return { ...at, rules: 'min: "2026-11-01T00:00:00Z", max: "2026-11-29T00:00:00Z"', element: TIMESTAMP, value: (_, h) => (NOV_1_MS + (h % (28 * 86_400)) * 1000) * 1000, plant: { rule: 'max', value: () => Date.UTC(2026, 11, 1) * 1000 } };
  }
}

function stringColumn(at: Pick<WideColumn, 'name' | 'kind' | 'block' | 'required'>): WideColumn {
  if (at.block === 0) {
    const key = (n: number) => `k${(Math.imul(n, 0x9e3779b1) >>> 0).toString(36)}`;
    return { ...at, rules: 'unique: true', element: STRING, value: (n) => key(n), plant: { rule: 'unique', value: (n, rows) => key(duplicateSource(n, rows)) } };
  }
  if (at.block % 2 === 0) {
    return { ...at, rules: `enum: [${ENUM.join(', ')}]`, element: STRING, value: (_, h) => ENUM[h % ENUM.length]!, plant: { rule: 'enum', value: () => 'omega' } };
  }
  const code = (h: number) => `${'abcdefghijklmnopqrstuvwxyz'[h % 26]}${'abcdefghijklmnopqrstuvwxyz'[(h >>> 8) % 26]}_${String(h % 1000).padStart(3, '0')}`;
  return { ...at, rules: 'pattern: "^[a-z]{2}_[0-9]{3}$"', element: STRING, value: (_, h) => code(h), plant: { rule: 'pattern', value: (n) => code(n).toUpperCase() } };
}

export const WIDE_COLUMNS: readonly WideColumn[] = Array.from({ length: WIDE_BLOCKS }, (_, block) => KINDS.map((kind) => column(kind, block))).flat();

/** Column c's plant hits offset (c * 113 + 17) % STRIDE: distinct for all 80, a different place in every block. */
const PLANTS: readonly SpreadPlant[] = WIDE_COLUMNS.map((c, index) => ({ ...c.plant, column: c.name, offset: (index * 113 + 17) % STRIDE }));

function base(first: number, end: number): TableChunk {
  const chunk: TableChunk = {};
  for (const [index, c] of WIDE_COLUMNS.entries()) {
    const values: unknown[] = new Array(end - first);
    for (let n = first; n < end; n++) {
      const h = mix32(n, 1000 + index);
      values[n - first] = !c.required && h % 10 === 0 ? null : c.value(n, h >>> 4);
    }
    chunk[c.name] = values;
  }
  return chunk;
}

export const WIDE_TABLE: TableSpec = {
  version: 'wide80-v1',
  schema: [{ name: 'root', num_children: WIDE_COLUMNS.length }, ...WIDE_COLUMNS.map((c) => optional(c.name, c.element))],
  chunk: (first, end, rows) => applyPlants(base(first, end), PLANTS, first, end, rows),
};

export function wideExpected(rows: number): CommonViolation[] {
  return [...plantsExpected(PLANTS, rows), ...(rows > WIDE_MAX_ROWS ? [{ rule: 'max_rows', column: null, count: 1 }] : [])];
}
