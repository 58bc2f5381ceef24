import { ExactValue } from '../../lib/contract/exact-value.js';
import { coerceFor } from '../../lib/checks/coerce-value.js';
import { parseColumnType } from '../../lib/contract/column-type.js';
import type { Contract } from '../../lib/contract/model.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';
import { contractFrom } from '../fixtures/partition.js';
import { collectBatches } from '../fixtures/table-files.js';

/**
 * One table with a column of every contract type a text writer has (binary aside: text writers
 * render bytes each their own way), written by each writer under test and read back. Temporal
 * values are ISO text with microseconds (instants in UTC), so every writer can be handed them
 * and the expected epoch values are computed without a writer in the loop.
 */
export interface WriterColumn {
  readonly name: string;
  readonly type: string;
  readonly values: readonly (string | number | boolean | null)[];
}

export const WRITER_COLUMNS: readonly WriterColumn[] = [
  { name: 'id', type: 'int64', values: [1, '123456789012345678', 3, 4, 5] },
  { name: 'small', type: 'int32', values: [7, -2147483648, null, 0, 42] },
  { name: 'ratio', type: 'float64', values: [1.5, 'NaN', '-Infinity', -1e-7, 1e300] },
  { name: 'score', type: 'float32', values: [0.25, 'Infinity', null, 1024, -2.5] },
  { name: 'amount', type: 'decimal(12,2)', values: ['12.34', '-0.50', null, '0.00', '9999999999.99'] },
  { name: 'paid', type: 'boolean', values: [true, false, null, true, false] },
  { name: 'day', type: 'date', values: ['2026-11-29', '2026-01-01', null, '2026-02-28', '1970-01-01'] },
  { name: 'placed_at', type: 'timestamp', values: ['2026-11-29T00:00:00.123456', '2026-11-28T23:59:59.000000', '2026-11-29T05:30:00.000000', '2026-11-29T00:00:00.000000', '1999-12-31T23:59:59.999999'] },
  { name: 'local_time', type: 'timestamp_ntz', values: ['2026-11-29T10:00:00.000000', '2026-11-29T10:00:00.500000', null, '2026-11-29T00:00:00.000000', '2026-11-29T23:59:59.999999'] },
  { name: 'note', type: 'string', values: ['plain', '', null, 'q"uote, and\nnewline', 'Zoë 東京 🎉'] },
];

export const WRITER_ROWS = 5;

/** `csv`: a `produces.csv` dialect as YAML flow text, e.g. `{ header: false }`. */
export function writerContract(format: 'csv' | 'jsonl', csv?: string): Contract {
  const columns = WRITER_COLUMNS.map((c) => `    - { name: ${c.name}, type: "${c.type}"${c.name === 'id' || c.name === 'placed_at' ? ', required: true' : ''} }`);
  return contractFrom(`name: writers
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format}${csv === undefined ? '' : `, csv: ${csv}`} }
schema:
  grain: [id]
  extra_columns: reject
  columns:
${columns.join('\n')}
`);
}

/**
 * What each column should read as, normalised by `comparable`: int64 past 2^53 as bigint, the
 * special floats as numbers, decimals as numbers, temporal values as whole epoch microseconds.
 */
export function expectedColumns(): Record<string, unknown[]> {
  return Object.fromEntries(WRITER_COLUMNS.map((c) => [c.name, c.values.map((v) => expectedValue(c.type, v))]));
}

function expectedValue(type: string, value: string | number | boolean | null): unknown {
  if (value === null) return null;
  if (type === 'int64' && typeof value === 'string') return BigInt(value);
  if (type.startsWith('float') || type.startsWith('decimal')) return Number(value);
  if (type === 'date' || type.startsWith('timestamp')) return isoMicros(String(value));
  return value;
}

/** Whole microseconds since the epoch of ISO text read as UTC (Date.parse stops at ms). */
export function isoMicros(iso: string): number {
  const fraction = /\.(\d+)/.exec(iso)?.[1] ?? '';
  const whole = Date.parse(`${iso.replace(/\.\d+/, '')}${iso.length === 10 ? '' : 'Z'}`);
  return whole * 1000 + Number(fraction.padEnd(6, '0').slice(0, 6));
}

/** Reads a written file back through the reader and the contract's value parsing, every column. */
export async function readBack(bytes: Uint8Array, format: 'csv' | 'jsonl'): Promise<Record<string, unknown[]>> {
  const file = format === 'csv' ? openCsvFile(byteSourceFromBytes(bytes)) : openJsonLinesFile(byteSourceFromBytes(bytes));
  const names = WRITER_COLUMNS.map((c) => c.name);
  const batches = await collectBatches(file, names);
  const unreadable = batches.flatMap((b) => b.unreadableRows ?? []);
  if (unreadable.length > 0) throw new Error(`unreadable rows: ${JSON.stringify(unreadable)}`);
  return Object.fromEntries(WRITER_COLUMNS.map((c) => {
    const type = parseColumnType(c.type)!;
    const coerce = coerceFor(format === 'csv' ? 'text' : 'dynamic', type);
    const raw = batches.flatMap((b) => Array.from(b.columns.get(c.name) ?? []));
    return [c.name, raw.map((value) => comparable(c.type, coerce(value)))];
  }));
}

/** Temporal values as whole microseconds: ms numbers, and ExactValues (exact-value.ts) of a time finer than a double holds. */
function comparable(type: string, value: unknown): unknown {
  const temporal = type === 'date' || type.startsWith('timestamp');
  if (temporal && value instanceof ExactValue && value.scale <= 3) return Number(value.units * 10n ** BigInt(3 - value.scale));
  return typeof value === 'number' && temporal ? Math.round(value * 1000) : value;
}

/** Expected columns with some values replaced, for what a writer is known to write differently. */
export function expectedWith(changes: Record<string, Record<number, unknown>>): Record<string, unknown[]> {
  const expected = expectedColumns();
  for (const [column, rows] of Object.entries(changes)) {
    for (const [row, value] of Object.entries(rows)) expected[column]![Number(row)] = value;
  }
  return expected;
}
