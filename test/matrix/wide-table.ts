import type { LogicalTable } from '../writers/index.js';
import { buildColumn, plant, type ColumnShape } from './plants.js';
import { pick, randomInt, seededRandom } from '../fixtures/seeded-random.js';

const DAY = 86_400_000;
const NOV_30 = Date.UTC(2026, 10, 30);
const LABELS = ['ok', 'fine', 'Zürich', 'naïve café', '日本語のラベル', '🇩🇪🇫🇷', 'a-much-longer-label'];

/**
 * Every contract type, each as a required and as an optional column, with violations of
 * test/matrix/contracts/wide.yaml planted across the file. Values probe the edges readers get
 * wrong: negative dates and pre-1970 instants, -0, infinities and NaN (only where no bound
 * applies: a NaN against a bound is contract-gate's own decision, item 6 of issue 11), decimals
 * stored as INT32, INT64 and FIXED_LEN_BYTE_ARRAY, empty and multi-byte strings and bytes.
 */
export function wideTable(rows: number): LogicalTable {
  const random = seededRandom(424242);
  const int = (low: number, high: number) => randomInt(random, low, high);
  const p = (count: number, phase: number, value: (row: number) => unknown) => plant(count, rows, phase, value);
  const col = (shape: ColumnShape, base: (row: number) => unknown, ...plants: ReturnType<typeof p>[]) => buildColumn(shape, rows, base, plants);
  const maybe = (rate: number, value: () => unknown) => () => (random() < rate ? null : value());
  const code = (i: number) => `${String.fromCharCode(65 + (i % 26), 65 + ((i >> 5) % 26), 65 + ((i >> 10) % 26))}-${String(i % 100).padStart(2, '0')}`;
  const kinds = Array.from({ length: rows }, maybe(0.1, () => pick(random, ['a', 'b', 'c', 'd'])));
  const flags = Array.from({ length: rows }, maybe(0.2, () => random() < 0.5));
  const columns = [
    // The grain is (id, code): a duplicate copies both from an earlier row.
    col({ name: 'id', type: 'int64', nullable: true }, (i) => 1_000_000_000 + Math.floor(i / 2), p(6, 0.35, (i) => 1_000_000_000 + Math.floor(i / 4)), p(3, 0.9, () => null)),
    col({ name: 'code', type: 'string', nullable: true }, code, p(6, 0.35, (i) => code(Math.floor(i / 2))), p(4, 0.6, (i) => code(i).toLowerCase()), p(3, 0.2, () => null)),
    col({ name: 'label', type: 'string', nullable: true }, maybe(0.3, () => pick(random, LABELS)), p(3, 0.45, () => 'x'), p(3, 0.85, () => '🙂'.repeat(21)), p(2, 0.1, () => '')),
    col({ name: 'kind', type: 'string', nullable: true }, (i) => kinds[i], p(5, 0.55, () => 'e'), p(2, 0.25, () => 'A')),
    // Random bytes of 4 or more never repeat by chance; the planted repeats include two values that
    // are not UTF-8 and differ only in a byte a lossy text decoding replaces.
    col({ name: 'payload', type: 'binary', nullable: true }, maybe(0.1, () => Uint8Array.from({ length: int(4, 24) }, () => int(0, 255))),
      p(4, 0.65, () => Uint8Array.of(0, 1, 2, 3)), p(3, 0.05, () => new Uint8Array(0)), p(2, 0.45, () => Uint8Array.of(0xff, 0x41)), p(2, 0.95, () => Uint8Array.of(0xfe, 0x41))),
    col({ name: 'blob_req', type: 'binary', nullable: true }, (i) => Uint8Array.of(i & 255, (i >> 8) & 255), p(3, 0.75, () => null)),
    col({ name: 'seq', type: 'int32', nullable: true }, (i) => i * 7 - 50_000, p(5, 0.15, (i) => (i - 3) * 7 - 50_000), p(2, 0.5, () => null)),
    col({ name: 'i32_req', type: 'int32', nullable: true }, () => int(-1000, 1000), p(3, 0.3, () => -1001), p(3, 0.7, () => 2 ** 31 - 1), p(2, 0.95, () => null)),
    col({ name: 'i64_opt', type: 'int64', nullable: true }, maybe(0.25, () => int(0, 2 ** 40)), p(3, 0.4, () => -1), p(3, 0.8, () => 2 ** 40 + 1), p(2, 0.6, () => 2 ** 53 - 1)),
    col({ name: 'f32_req', type: 'float32', nullable: true }, () => Math.fround(random() * 2 - 1), p(3, 0.33, () => 1.5), p(2, 0.66, () => -Infinity), p(2, 0.99, () => null), p(2, 0.01, () => -1)),
    col({ name: 'f32_opt', type: 'float32', nullable: true }, maybe(0.3, () => Math.fround(random() * 1e6)), p(4, 0.5, () => NaN), p(2, 0.2, () => Infinity)),
    col({ name: 'f64_req', type: 'float64', nullable: false }, () => random() * 1e6, p(3, 0.27, () => -0.5), p(3, 0.57, () => 1e7), p(2, 0.87, () => -0), p(2, 0.07, () => Infinity)),
    col({ name: 'f64_opt', type: 'float64', nullable: true }, maybe(0.3, () => (random() - 0.5) * 1e300), p(4, 0.4, () => NaN), p(2, 0.8, () => -Infinity), p(2, 0.3, () => 5e-324)),
    col({ name: 'dec_small', type: 'decimal', precision: 5, scale: 2, nullable: true }, () => int(-10_000, 10_000) / 100, p(3, 0.23, () => -100.01), p(3, 0.63, () => 999.99), p(2, 0.43, () => null)),
    col({ name: 'dec_mid', type: 'decimal', precision: 18, scale: 4, nullable: true }, maybe(0.2, () => int(0, 10 ** 13) / 10_000), p(3, 0.53, () => -0.0001), p(3, 0.13, () => 1_000_000_000.0001)),
    col({ name: 'dec_big', type: 'decimal', precision: 30, scale: 2, nullable: true }, maybe(0.2, () => int(-(10 ** 14), 10 ** 14) / 100), p(3, 0.73, () => 1e12 + 0.01), p(3, 0.03, () => -1e13)),
    col({ name: 'flag_req', type: 'boolean', nullable: true }, () => random() < 0.5, p(4, 0.62, () => null)),
    col({ name: 'flag_opt', type: 'boolean', nullable: true }, (i) => flags[i]),
    col({ name: 'note_when', type: 'string', nullable: true }, (i) => (flags[i] === true && i % 53 === 0 ? null : flags[i] === true ? 'why' : null)),
    col({ name: 'qty_when', type: 'int32', nullable: true }, (i) => (kinds[i] === 'a' && i % 41 !== 0 ? int(1, 9) : null)),
    col({ name: 'day', type: 'date', nullable: true }, () => NOV_30 - int(0, 2000) * DAY, p(3, 0.36, () => -DAY), p(3, 0.76, () => Date.UTC(2031, 0, 1)), p(2, 0.56, () => NOV_30 + 10 * DAY), p(2, 0.16, () => null)),
    col({ name: 'day_opt', type: 'date', nullable: true }, maybe(0.4, () => int(-40_000, 40_000) * DAY)),
    col({ name: 'at', type: 'timestamp', nullable: true }, () => NOV_30 - int(0, 300 * 86_400) * 1000 - int(0, 999), p(3, 0.39, () => Date.UTC(2025, 11, 31, 23, 59, 59, 999)), p(3, 0.79, () => Date.UTC(2027, 0, 1)), p(2, 0.19, () => null)),
    col({ name: 'at_opt', type: 'timestamp', nullable: true }, maybe(0.35, () => int(-2e12, 2e12))),
    col({ name: 'local_at', type: 'timestamp_ntz', nullable: true }, () => NOV_30 - int(0, 300 * 86_400) * 1000, p(3, 0.29, () => Date.UTC(2025, 0, 1)), p(2, 0.69, () => Date.UTC(2026, 11, 25)), p(2, 0.49, () => null)),
    col({ name: 'local_opt', type: 'timestamp_ntz', nullable: true }, maybe(0.5, () => int(-1e12, 3e12))),
    col({ name: 'loaded_at', type: 'timestamp', nullable: false }, (i) => NOV_30 - 2 * DAY + i),
    col({ name: 'comment', type: 'string', nullable: true }, maybe(0.9, () => 'not in the contract')),
  ];
  return { columns, rows };
}
