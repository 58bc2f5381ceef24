import type { ColumnSource, SchemaElement } from 'hyparquet-writer';
import type { LogicalColumn } from './logical-table.js';
import { decimalText } from './duckdb-table.js';

const DAY_MS = 86_400_000;

/**
 * The Parquet schema element hyparquet-writer is given for a logical column: the same physical
 * and logical types DuckDB and arrow-rs choose (decimals as INT32/INT64/FIXED_LEN_BYTE_ARRAY by
 * precision, timestamps as INT64 micros with isAdjustedToUTC telling instant from wall clock).
 */
export function hyparquetElement(column: LogicalColumn): SchemaElement {
  const base = { name: column.name, repetition_type: column.nullable ? 'OPTIONAL' : 'REQUIRED' } as const;
  switch (column.type) {
    case 'string': return { ...base, type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } };
    case 'binary': return { ...base, type: 'BYTE_ARRAY' };
    case 'int32': return { ...base, type: 'INT32' };
    case 'int64': return { ...base, type: 'INT64' };
    case 'float32': return { ...base, type: 'FLOAT' };
    case 'float64': return { ...base, type: 'DOUBLE' };
    case 'boolean': return { ...base, type: 'BOOLEAN' };
    case 'date': return { ...base, type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } };
    case 'timestamp':
    case 'timestamp_ntz': return { ...base, type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: column.type === 'timestamp', unit: 'MICROS' } };
    case 'decimal': return decimalElement(base, column.precision ?? 18, column.scale ?? 0);
  }
}

function decimalElement(base: Pick<SchemaElement, 'name' | 'repetition_type'>, precision: number, scale: number): SchemaElement {
  const decimal = { converted_type: 'DECIMAL', precision, scale, logical_type: { type: 'DECIMAL', precision, scale } } as const;
  if (precision <= 9) return { ...base, ...decimal, type: 'INT32' };
  if (precision <= 18) return { ...base, ...decimal, type: 'INT64' };
  // The fewest bytes whose two's complement holds every value of `precision` digits.
  let bytes = 1;
  while (2n ** BigInt(8 * bytes - 1) <= 10n ** BigInt(precision)) bytes++;
  return { ...base, ...decimal, type: 'FIXED_LEN_BYTE_ARRAY', type_length: bytes };
}

/**
 * The column's values as hyparquet-writer takes them for that element. Decimals go as unscaled
 * bigints built from their exact digits: the writer's own number path multiplies by 10^scale in
 * floating point, which can round 1.005 to 100 hundredths.
 */
export function hyparquetData(column: LogicalColumn): ColumnSource['data'] {
  const convert = valueConverter(column);
  return column.values.map((value) => (value === null || value === undefined ? null : convert(value)));
}

function valueConverter(column: LogicalColumn): (value: unknown) => unknown {
  switch (column.type) {
    case 'int64': return (v) => BigInt(v as number);
    case 'date': return (v) => Math.floor((v as number) / DAY_MS);
    case 'timestamp':
    case 'timestamp_ntz': return (v) => BigInt(v as number) * 1000n;
    case 'decimal': return (v) => BigInt(decimalText(v as number, column.scale ?? 0).replace('.', ''));
    default: return (v) => v;
  }
}
