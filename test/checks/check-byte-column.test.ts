import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { byteColumns } from '../../lib/checks/byte-rules.js';
import { compositeKeyHashes } from '../../lib/checks/check-byte-column.js';
import { hashParts } from '../../lib/checks/key-hash.js';
import type { ByteVector } from '../../lib/formats/column-vector.js';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import type { ReadableColumn } from '../../lib/checks/schema-check.js';
import { contractFrom, memoryFile, NEXT_MORNING, validate } from '../fixtures/partition.js';
import { seededRandom } from '../fixtures/seeded-random.js';
import { writeCached, writerVariant, type LogicalTable } from '../writers/index.js';

/**
 * String columns whose rules all run on UTF-8 bytes are checked without a string per value
 * (check-byte-column.ts). The same rows are checked as strings when the file's row groups are
 * small (hyparquet decodes those whole) and on bytes when a group is large and its strings PLAIN:
 * the reports must be the same, counts, samples and all, and the counts those a plain JavaScript
 * reading of the rows gives. The values mix UUIDs with non-ASCII text, byte-order marks and
 * characters outside the BMP, near every length bound.
 */
const ROWS = 30_000;
const hex = (n: number, width: number) => (Math.imul(n + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, '0').repeat(2).slice(0, width);
const NAMES = ['ab', 'abcde', 'a', 'abcdef', 'éé', 'ééééé', 'éééééé', '😀😀', '😀', '日本語', '日本語日本語', '\ufeffab', '', 'a😀b😀c'];
const STATUSES = ['paid', 'open', 'Été', 'ete', '\ufeffpaid', '\ufeff\ufeffpaid', 'PAID', 'x', 'été'];
const WORDS = ['abc', 'ab1', 'été', '日本', '', 'Ωmega', 'a b'];

function uuid(i: number): string {
  return `${hex(i, 8)}-${hex(i + 7, 4)}-${hex(i + 11, 4)}-${hex(i + 13, 4)}-${hex(i + 17, 12)}`;
}

function column(i: number, name: string): string | null {
  if (name === 'id') return i % 2003 === 5 ? null : i % 1499 === 3 ? uuid(i).toUpperCase() : uuid(i % 997 === 1 ? i - 1 : i);
  if (name === 'sku') {
    if (i % 211 === 0) return null;
    const sku = `${String.fromCharCode(65 + (i % 26), 65 + ((i >> 3) % 26), 65 + ((i >> 6) % 26))}-${String(i % 10_000).padStart(4, '0')}`;
    return i % 101 === 7 ? sku.toLowerCase() : i % 307 === 9 ? `À${sku.slice(1)}` : i % 401 === 11 ? `${sku}5` : sku;
  }
  if (name === 'name') return NAMES[(i * 5) % NAMES.length]!;
  if (name === 'status') return i % 17 === 0 ? null : STATUSES[(i * 5) % STATUSES.length]!;
  return WORDS[i % WORDS.length]!;
}

const NAMES_OF_COLUMNS = ['id', 'sku', 'name', 'status', 'word'];
const table: LogicalTable = {
  rows: ROWS,
  columns: NAMES_OF_COLUMNS.map((name) => ({ name, type: 'string' as const, nullable: true, values: Array.from({ length: ROWS }, (_, i) => column(i, name)) })),
};

const contract = contractFrom(`
name: byte-strings
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: parquet }
schema:
  grain: [id]
  columns:
    - { name: id, type: string, pattern: "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$" }
    - { name: sku, type: string, pattern: "^[A-Z]{3}-[0-9]{4}$" }
    - { name: name, type: string, required: true, min_length: 2, max_length: 5 }
    - { name: status, type: string, enum: [paid, open, "Été", "\\ufeffpaid"] }
    - { name: word, type: string, pattern: "^\\\\p{L}+$" }
`);

const compositeYaml = `
name: byte-strings
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: parquet }
schema:
  grain: [name, status, word]
  columns:
    - { name: id, type: string }
    - { name: sku, type: string }
    - { name: name, type: string }
    - { name: status, type: string }
    - { name: word, type: string, pattern: "^[a-z]+$" }
`;

/** The counts as JavaScript reads the rows: code points, RegExp with the u flag, strict equality. */
function oracle(): Record<string, number> {
  const values = (name: string) => table.columns.find((c) => c.name === name)!.values as (string | null)[];
  const failing = (name: string, fails: (value: string) => boolean) => values(name).filter((v) => v !== null && fails(v)).length;
  const ids = values('id').filter((v): v is string => v !== null);
  return {
    'required:id': values('id').filter((v) => v === null).length,
    'grain': ids.length - new Set(ids).size,
    'pattern:id': failing('id', (v) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/u.test(v)),
    'pattern:sku': failing('sku', (v) => !/^[A-Z]{3}-[0-9]{4}$/u.test(v)),
    'length:name': failing('name', (v) => [...v].length < 2 || [...v].length > 5),
    'enum:status': failing('status', (v) => !['paid', 'open', 'Été', '\ufeffpaid'].includes(v)),
    'pattern:word': failing('word', (v) => !/^\p{L}+$/u.test(v)),
  };
}

async function report(variant: string, against = contract) {
  const bytes = new Uint8Array(readFileSync(await writeCached(writerVariant(variant), table, 'byte-strings')));
  return validate(against, [memoryFile('part-0.parquet', bytes)]);
}

/** A ByteVector of byte strings, null for null. */
function vectorOf(values: readonly (Uint8Array | null)[]): ByteVector {
  const offsets = new Int32Array(values.length + 1);
  values.forEach((v, i) => (offsets[i + 1] = offsets[i]! + (v?.length ?? 0)));
  const bytes = new Uint8Array(offsets[values.length]!);
  values.forEach((v, i) => v && bytes.set(v, offsets[i]));
  return { kind: 'bytes', bytes, offsets, present: Uint8Array.from(values, (v) => (v ? 1 : 0)) };
}

describe('string rules checked on UTF-8 bytes', () => {
  it('apply to the columns whose every rule has a byte form, not to a column other rules read', () => {
    const plan = buildCheckPlan(contract, NEXT_MORNING);
    const readable: ReadableColumn[] = plan.columns.map((c) => ({ plan: c }));
    expect([...byteColumns(plan, readable)].sort()).toEqual(['id', 'name', 'sku', 'status', 'word']);
    const composite = buildCheckPlan(contractFrom(readFileSync('contracts/orders.v1.yaml', 'utf8')), NEXT_MORNING);
    const keyParts = new Set(composite.grain.length > 1 ? composite.grain : []);
    for (const name of byteColumns(composite, composite.columns.map((c) => ({ plan: c })))) expect(keyParts.has(name)).toBe(false);
  });

  it('hash a composite key with parts as bytes as hashing the decoded parts does, malformed UTF-8 and nulls included', () => {
    const random = seededRandom(21);
    const pool = [[], [0x61], [0xc3, 0xa9], [0xef, 0xbb, 0xbf, 0x61], [0xff], [0xe2, 0x82], [0xf0, 0x9f, 0x98, 0x80], [0x61, 0x62, 0x63, 0x64, 0x65]];
    const rows = 2000;
    const first = Array.from({ length: rows }, () => (random() < 0.1 ? null : Uint8Array.from(pool[Math.floor(random() * pool.length)]!)));
    const second = Array.from({ length: rows }, (_, i) => (i % 13 === 0 ? null : i % 3 === 0 ? BigInt(i) : i * 0.5));
    const skip = Uint8Array.from({ length: rows }, (_, i) => (i % 97 === 0 ? 1 : 0));
    const actual = compositeKeyHashes([vectorOf(first), second], rows, skip);
    const text = new TextDecoder('utf-8', { ignoreBOM: true });
    const wrong = first.filter((bytes, i) => {
      const parts = [bytes && text.decode(bytes), second[i]];
      const expected = skip[i] || parts.some((p) => p === null) ? NaN : hashParts(parts);
      return !Object.is(actual[i], expected);
    });
    expect(wrong).toEqual([]);
  });

  it('report what checking the decoded strings reports with a composite grain of strings', async () => {
    const composite = contractFrom(compositeYaml);
    const reference = await report('duckdb-small-groups', composite);
    expect(reference.violations.some((v) => v.rule === 'grain' && v.count > 0)).toBe(true);
    for (const variant of ['duckdb-nodict', 'arrow-rs-nodict', 'polars-default']) expect((await report(variant, composite)).violations, variant).toEqual(reference.violations);
  });

  it('report what checking the decoded strings reports, on PLAIN pages of every writer', async () => {
    // DuckDB's groups of 2,048 rows are decoded whole, as strings: the reference.
    const reference = await report('duckdb-small-groups');
    const counted = Object.fromEntries(reference.violations.map((v) => [v.column && v.rule !== 'grain' ? `${v.rule}:${v.column}` : v.rule, v.count]));
    expect(counted).toEqual(oracle());
    for (const variant of ['duckdb-nodict', 'duckdb-one-group', 'arrow-rs-nodict', 'arrow-rs-dict-fallback', 'polars-default', 'hyparquet-plain']) {
      const actual = await report(variant);
      expect(actual.violations, variant).toEqual(reference.violations);
      expect(actual.rows, variant).toBe(ROWS);
    }
  });
});
