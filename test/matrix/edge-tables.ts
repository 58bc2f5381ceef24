import type { LogicalColumn, LogicalTable } from '../writers/index.js';

const shapes: readonly Omit<LogicalColumn, 'values' | 'nullable'>[] = [
  { name: 'a string', type: 'string' }, { name: 'bytes', type: 'binary' }, { name: 'i32', type: 'int32' },
  { name: 'i64', type: 'int64' }, { name: 'f32', type: 'float32' }, { name: 'f64', type: 'float64' },
  { name: 'dec', type: 'decimal', precision: 9, scale: 3 }, { name: 'bool', type: 'boolean' }, { name: 'day', type: 'date' },
  { name: 'at', type: 'timestamp' }, { name: 'wall "clock"', type: 'timestamp_ntz' },
];

const samples: Readonly<Record<string, readonly unknown[]>> = {
  string: ['', 'it\'s "quoted"', 'tab\tnew\nline', 'ünïcödé 🙂'], binary: [new Uint8Array(0), Uint8Array.of(0, 255)],
  int32: [-(2 ** 31), 2 ** 31 - 1, 0], int64: [-(2 ** 53) + 1, 2 ** 53 - 1], float32: [Math.fround(0.1), -0, NaN, Infinity],
  float64: [Number.MIN_VALUE, -Number.MAX_VALUE, NaN, -Infinity], decimal: [-999999.999, 0.001, 0], boolean: [true, false],
  date: [Date.UTC(1900, 0, 1), Date.UTC(2262, 3, 11), 0], timestamp: [Date.UTC(1677, 8, 22), Date.UTC(2262, 3, 11), -1],
  timestamp_ntz: [Date.UTC(1970, 0, 1, 0, 0, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
};

function table(rows: number, value: (shape: (typeof shapes)[number], row: number) => unknown, nullable = true): LogicalTable {
  return { rows, columns: shapes.map((shape) => ({ ...shape, nullable, values: Array.from({ length: rows }, (_, row) => value(shape, row)) })) };
}

/**
 * Small tables at the edges a randomized test can reach: no rows, one row, columns that are all
 * null, names with spaces and quotes, each type's extreme values, required (non-nullable) columns.
 */
export const EDGE_TABLES: readonly { readonly label: string; readonly table: LogicalTable }[] = [
  { label: 'no-rows', table: table(0, () => null) },
  { label: 'all-null', table: table(3, () => null) },
  { label: 'extremes', table: table(12, (shape, row) => (row % 5 === 4 ? null : samples[shape.type]![row % samples[shape.type]!.length])) },
  { label: 'required', table: table(7, (shape, row) => samples[shape.type]![row % samples[shape.type]!.length], false) },
];
