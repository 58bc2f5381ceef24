import { gunzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { coerceFor, INVALID } from '../../lib/checks/coerce-value.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { isBlank, parseObject } from '../../lib/formats/json-line-object.js';
import { openJsonLinesFile, type JsonLinesOptions } from '../../lib/formats/jsonl-file.js';
import type { ColumnBatch } from '../../lib/formats/table-file.js';
import { columnTypes } from './csv-parsed-reference.js';

/**
 * The reference for JSON Lines read by contract type: lines split here, each parsed by the
 * JSON.parse road (parseObject), values coerced by the engine's JSON rules. It shares nothing
 * with the reader's byte road (json-object-bytes.ts) but that road's fallback.
 */
/** Lines split by hand, each parsed by JSON.parse (parseObject), values coerced by the JSON rules. */
export function jsonReference(file: Uint8Array, types: Record<string, string>) {
  const names = Object.keys(types);
  const bytes = file[0] === 0x1f && file[1] === 0x8b ? new Uint8Array(gunzipSync(file)) : file;
  const start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const coerce = new Map(Object.entries(types).map(([name, type]) => [name, coerceFor('dynamic', columnTypes({ [name]: type }).get(name)!)]));
  const rows: { values: unknown[]; unparsed: unknown[]; unreadable?: string }[] = [];
  const keys = new Set<string>();
  let lineStart = start;
  for (let line = 1; lineStart <= bytes.length; line++) {
    let end = bytes.indexOf(0x0a, lineStart);
    if (end === -1) end = bytes.length;
    const textEnd = end > lineStart && bytes[end - 1] === 0x0d ? end - 1 : end;
    if (!(lineStart === bytes.length) && !isBlank(bytes, lineStart, textEnd)) {
      const parsed = parseObject(bytes.subarray(lineStart, textEnd), line);
      if (typeof parsed === 'string') rows.push({ values: names.map(() => undefined), unparsed: [], unreadable: `line ${line}: ${parsed}` });
      else {
        Object.keys(parsed).forEach((key) => keys.add(key));
        const raw = names.map((name) => (Object.hasOwn(parsed, name) ? parsed[name] : undefined));
        const values = raw.map((value, i) => coerce.get(names[i]!)!(value));
        rows.push({ values, unparsed: values.map((value, i) => (value === INVALID ? raw[i] : 'ok')) });
      }
    }
    lineStart = end + 1;
  }
  return { rows, keys };
}

export async function collect(batches: AsyncIterable<ColumnBatch>): Promise<ColumnBatch[]> {
  const all: ColumnBatch[] = [];
  for await (const batch of batches) all.push(batch);
  return all;
}

export async function jsonParsedRead(bytes: Uint8Array, types: Record<string, string>, options: JsonLinesOptions) {
  const names = Object.keys(types);
  const batches = await collect(openJsonLinesFile(byteSourceFromBytes(bytes), options).batches(names, { parse: columnTypes(types) }));
  const keys = new Set(batches.flatMap((b) => [...(b.keys ?? [])]));
  const rows = batches.flatMap((b) => Array.from({ length: b.rowCount }, (_, i) => {
    const unreadable = (b.unreadableRows ?? []).find((u) => u.row === b.rowStart + i);
    const values = names.map((name) => b.columns.get(name)![i]);
    const unparsed = names.map((name, c) => (values[c] === INVALID ? b.parsed!.get(name)!.find((u) => u.index === i)!.raw : 'ok'));
    return unreadable ? { values: names.map(() => undefined), unparsed: [], unreadable: `line ${unreadable.line}: ${unreadable.reason}` } : { values, unparsed };
  }));
  return { rows, keys };
}

/** Deep equality with Object.is at the leaves: -0 is not 0, NaN is NaN, bigints by value. */
export function same(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(actual) && Array.isArray(expected)) return actual.length === expected.length && actual.every((a, i) => same(a, expected[i]));
  if (actual && expected && typeof actual === 'object' && typeof expected === 'object') {
    const keys = Object.keys(actual);
    return same(keys, Object.keys(expected)) && keys.every((key) => same((actual as Record<string, unknown>)[key], (expected as Record<string, unknown>)[key]));
  }
  return Object.is(actual, expected);
}

/** Reads at each size and checks every read against the reference, row by row. */
export async function expectJsonParsedLikeParse(bytes: Uint8Array, types: Record<string, string>, sizes: readonly JsonLinesOptions[]): Promise<void> {
  const expected = jsonReference(bytes, types);
  for (const options of sizes) {
    const actual = await jsonParsedRead(bytes, types, options);
    expect(actual.keys).toEqual(expected.keys);
    expect(actual.rows.length).toBe(expected.rows.length);
    const differing = actual.rows.flatMap((row, r) => (same(row, expected.rows[r]) ? [] : [{ r, actual: row, expected: expected.rows[r] }]));
    expect(differing.slice(0, 3), JSON.stringify(options)).toEqual([]);
  }
}
