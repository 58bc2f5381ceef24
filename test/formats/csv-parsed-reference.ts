import { expect } from 'vitest';
import { coerceFor, INVALID } from '../../lib/checks/coerce-value.js';
import { hashValue } from '../../lib/checks/key-hash.js';
import { parseColumnType, type ColumnType } from '../../lib/contract/column-type.js';
import { ExactValue } from '../../lib/contract/exact-value.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile, type CsvOptions } from '../../lib/formats/csv-file.js';
import type { ColumnBatch, UnreadableRow } from '../../lib/formats/table-file.js';

/**
 * The reference for the CSV reader's parsed and hashed columns: the same file read as text with
 * the engine's text rules applied value by value (coerce-value.ts) and key hashes taken of the
 * coerced values (key-hash.ts). The text is read row by row (readRows), so through the scanner's
 * state machine alone, never the fast road for plain records that batches take: a parsed read
 * must agree with it exactly, whatever the chunk and batch sizes.
 */
export interface ReadOutcome {
  readonly values: Record<string, unknown[]>;
  /** Per column, the rows (within the file) whose field did not parse, with their text. */
  readonly unparsed: Record<string, { row: number; raw: unknown }[]>;
  readonly hashes: Record<string, number[]>;
  readonly unreadable: UnreadableRow[];
}

export function columnTypes(types: Record<string, string>): Map<string, ColumnType> {
  return new Map(Object.entries(types).map(([name, text]) => [name, parseColumnType(text)!]));
}

/** The file read as text and coerced by the text rules; `hashed` columns also as key hashes. */
export async function textReference(bytes: Uint8Array, types: Record<string, string>, hashed: readonly string[] = []): Promise<ReadOutcome> {
  const parsed = columnTypes(types);
  // No file has more rows than bytes: asking for that many reads every row.
  const every = Array.from({ length: bytes.length + 1 }, (_, row) => row);
  const batches = await collect(openCsvFile(byteSourceFromBytes(bytes)).readRows!([...parsed.keys()], every));
  const outcome: ReadOutcome = { values: {}, unparsed: {}, hashes: {}, unreadable: batches.flatMap((b) => b.unreadableRows ?? []) };
  const skipped = new Set(outcome.unreadable.map((u) => u.row));
  for (const [name, type] of parsed) {
    const coerce = coerceFor('text', type);
    const raw = batches.flatMap((b) => Array.from(b.columns.get(name) ?? []));
    const values = raw.map((text, row) => (skipped.has(row) ? undefined : coerce(text)));
    outcome.values[name] = values;
    outcome.unparsed[name] = values.flatMap((value, row) => (value === INVALID ? [{ row, raw: raw[row] }] : []));
    if (hashed.includes(name)) outcome.hashes[name] = values.map((value) => (value === null || value === undefined ? NaN : hashValue(value)));
  }
  return outcome;
}

/** The file read with every column parsed (and `hashed` ones hashed) at the given sizes. */
export async function parsedRead(bytes: Uint8Array, types: Record<string, string>, hashed: readonly string[] = [], options: CsvOptions = {}): Promise<ReadOutcome> {
  const parse = columnTypes(types);
  const file = openCsvFile(byteSourceFromBytes(bytes), options);
  const batches = await collect(file.batches([...parse.keys()], { parse, hashOnly: new Set(hashed) }));
  const outcome: ReadOutcome = { values: {}, unparsed: {}, hashes: {}, unreadable: batches.flatMap((b) => b.unreadableRows ?? []) };
  for (const name of parse.keys()) {
    if (hashed.includes(name)) {
      outcome.hashes[name] = batches.flatMap((b) => Array.from(b.hashes!.get(name)!));
      continue;
    }
    outcome.values[name] = batches.flatMap((b) => Array.from(b.columns.get(name)!));
    outcome.unparsed[name] = batches.flatMap((b) => (b.parsed!.get(name) ?? []).map(({ index, raw }) => ({ row: b.rowStart + index, raw })));
  }
  return outcome;
}

/** Object.is, and ExactValues (exact-value.ts) by value: each read makes its own. */
function sameValue(a: unknown, b: unknown): boolean {
  return Object.is(a, b) || (a instanceof ExactValue && b instanceof ExactValue && String(a) === String(b));
}

/** Asserts a parsed read agrees with the reference, value for value (Object.is: -0 is not 0). */
export function expectSameOutcome(actual: ReadOutcome, reference: ReadOutcome, hashed: readonly string[] = []): void {
  expect(actual.unreadable).toEqual(reference.unreadable);
  for (const [name, expected] of Object.entries(reference.values)) {
    if (hashed.includes(name)) {
      expect(actual.hashes[name], `hashes of ${name}`).toEqual(reference.hashes[name]);
      continue;
    }
    const values = actual.values[name]!;
    expect(values.length, `rows of ${name}`).toBe(expected.length);
    const differing = expected.flatMap((value, row) => (sameValue(value, values[row]) ? [] : [{ row, expected: String(value), actual: String(values[row]) }]));
    expect(differing.slice(0, 5), `values of ${name}`).toEqual([]);
    expect(actual.unparsed[name], `unparsed fields of ${name}`).toEqual(reference.unparsed[name]);
  }
}

/** Reads at each size and checks every read against the reference. */
export async function expectParsedLikeText(bytes: Uint8Array, types: Record<string, string>, hashed: readonly string[], sizes: readonly CsvOptions[]): Promise<void> {
  const reference = await textReference(bytes, types, hashed);
  for (const options of sizes) expectSameOutcome(await parsedRead(bytes, types, hashed, options), reference, hashed);
}

async function collect(batches: AsyncIterable<ColumnBatch>): Promise<ColumnBatch[]> {
  const all: ColumnBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}
