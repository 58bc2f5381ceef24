import { ExactValue } from '../../lib/contract/exact-value.js';
import { expect } from 'vitest';
import type { Contract } from '../../lib/contract/model.js';
import { contractFrom } from '../fixtures/partition.js';
import { isoMicros } from './text-writer-table.js';
import type { ReadOutcome } from './csv-parsed-reference.js';

/**
 * A few hundred rows for the CSV writer-knob tests: nulls in every column but the key, strings
 * with every character RFC 4180 quotes for (and multi-byte ones), int64 past 2^53, negative and
 * fractional numbers, timestamps with microseconds. Values are canonical text, so each writer
 * is handed the same table and the expected values are computed without a writer in the loop.
 */
export interface KnobColumn {
  readonly name: string;
  readonly type: string;
  readonly values: readonly (string | null)[];
}

export const KNOB_ROWS = 300;

function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0;
    return state / 2 ** 32;
  };
}

const NOTES = ['plain', 'a, b', 'say "hi"', 'two\nlines', 'crlf\r\ninside', 'Zoë 東京 🎉', '"', ',', ' padded ', 'NULL', '\\N', 'tab\there', 'é'];

function generate(): KnobColumn[] {
  const draw = prng(20261129);
  const rows = Array.from({ length: KNOB_ROWS }, (_, i) => i);
  const sometimes = (value: () => string, nulls = 0.1) => rows.map(() => (draw() < nulls ? null : value()));
  const int = (span: number) => String(Math.floor((draw() - 0.5) * span));
  // 2001-2048: epoch milliseconds there still hold microseconds exactly enough to round back.
  const micros = () => BigInt(Math.floor(draw() * 1.5e15)) + 1_000_000_000_000_000n;
  const iso = (us: bigint) => `${new Date(Number(us / 1000n)).toISOString().slice(0, 19)}.${String(us % 1_000_000n).padStart(6, '0')}`;
  return [
    { name: 'id', type: 'int64', values: rows.map((i) => (i % 7 === 3 ? String(9_007_199_254_740_993n + BigInt(i)) : String(i * 1009 - 5000))) },
    { name: 'key', type: 'string', values: rows.map((i) => `k-${i.toString(36)}${i % 11 === 0 ? ',x' : ''}`) },
    { name: 'small', type: 'int32', values: sometimes(() => (draw() < 0.05 ? '-2147483648' : int(2e6))) },
    { name: 'ratio', type: 'float64', values: sometimes(() => String(draw() < 0.1 ? -1e-7 : Math.round((draw() - 0.5) * 1e6) / 64)) },
    { name: 'amount', type: 'decimal(12,2)', values: sometimes(() => (Math.floor((draw() - 0.3) * 1e9) / 100).toFixed(2)) },
    { name: 'paid', type: 'boolean', values: sometimes(() => String(draw() < 0.5)) },
    { name: 'day', type: 'date', values: sometimes(() => iso(micros()).slice(0, 10)) },
    { name: 'placed_at', type: 'timestamp', values: sometimes(() => iso(micros())) },
    { name: 'local_time', type: 'timestamp_ntz', values: sometimes(() => iso(micros())) },
    { name: 'note', type: 'string', values: sometimes(() => NOTES[Math.floor(draw() * NOTES.length)]!) },
  ];
}

export const KNOB_COLUMNS: readonly KnobColumn[] = generate();

export const KNOB_TYPES: Record<string, string> = Object.fromEntries(KNOB_COLUMNS.map((c) => [c.name, c.type]));

export function knobContract(): Contract {
  const columns = KNOB_COLUMNS.map((c) => `    - { name: ${c.name}, type: "${c.type}"${c.name === 'id' || c.name === 'key' ? ', required: true' : ''} }`);
  return contractFrom(`name: knobs
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
schema:
  grain: [key]
  extra_columns: reject
  columns:
${columns.join('\n')}
`);
}

/** What a column's canonical text reads as: int64 past 2^53 as bigint, temporal as whole microseconds. */
function expectedValue(type: string, value: string | null): unknown {
  if (value === null) return null;
  if (type === 'int64') return Number.isSafeInteger(Number(value)) ? Number(value) : BigInt(value);
  if (type === 'int32' || type.startsWith('float') || type.startsWith('decimal')) return Number(value);
  if (type === 'boolean') return value === 'true';
  if (type === 'date' || type.startsWith('timestamp')) return isoMicros(value);
  return value;
}

/** Temporal values compared as whole microseconds, as the writers were handed them. */
function comparable(type: string, value: unknown): unknown {
  if (!(type === 'date' || type.startsWith('timestamp'))) return value;
  // Times past the millisecond are read exactly: epoch ms with their µs digits (exact-value.ts).
  if (value instanceof ExactValue && value.scale <= 3) return Number(value.units * 10n ** BigInt(3 - value.scale));
  return typeof value === 'number' ? Math.round(value * 1000) : value;
}

/**
 * Asserts a parsed read holds the table's values, except where `writerNull` says a writer
 * writes a value as it writes a null (pandas: the empty string), and with no field unparsed.
 */
export function expectKnobValues(outcome: ReadOutcome, lossy: (column: string, value: string | null) => unknown = (_c, v) => v): void {
  expect(outcome.unreadable).toEqual([]);
  for (const column of KNOB_COLUMNS) {
    expect(outcome.unparsed[column.name] ?? [], `unparsed ${column.name}`).toEqual([]);
    const expected = column.values.map((v) => expectedValue(column.type, lossy(column.name, v) as string | null));
    const actual = (outcome.values[column.name] ?? []).map((v) => comparable(column.type, v));
    expect(actual, `values of ${column.name}`).toEqual(expected);
  }
}
