import type { ColumnType } from '../../lib/contract/column-type.js';

/**
 * How a text value (a CSV field, a JSON string) reads as a contract type, written from the
 * README's table "What a CSV field or a JSON Lines value reads as", as SQL over `raw`.
 */
export function textIsValid(type: ColumnType, raw: string): string {
  const full = (pattern: string, on = raw) => `regexp_full_match(${on}, '${pattern}')`;
  switch (type.kind) {
    case 'string':
    case 'binary': return 'true';
    case 'int32': return `(${full('[+-]?[0-9]+')} AND TRY_CAST(${raw} AS HUGEINT) BETWEEN -2147483648 AND 2147483647)`;
    case 'int64': return `(${full('[+-]?[0-9]+')} AND TRY_CAST(${raw} AS HUGEINT) BETWEEN -9223372036854775808 AND 9223372036854775807)`;
    case 'float32':
    case 'float64': return `(${full(NUMBER)} OR ${full(NON_FINITE, `lower(${raw})`)})`;
    case 'decimal': return decimalTextFits(raw, type.precision, type.scale);
    case 'boolean': return `lower(${raw}) IN ('true', 'false', 't', 'f')`;
    case 'date': return `((${full(DATE)} OR ${full(`${DATE}[T ]00:00(:00(\\.0{1,9})?)?`)}) AND ${realDate(raw)})`;
    case 'timestamp': return `(${full(`${DATE}[T ]${TIME}(${OFFSET})`)} AND ${realDate(raw)})`;
    case 'timestamp_ntz': return `((${full(`${DATE}[T ]${TIME}`)} OR ${full(DATE)}) AND ${realDate(raw)})`;
  }
}

const NUMBER = '[+-]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][+-]?[0-9]+)?';
const NON_FINITE = '[+-]?(nan|inf|infinity)';
const DATE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
const TIME = '([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9](\\.[0-9]{1,9})?)?';
/** Z, ±HH, ±HHMM, ±HH:MM, ±HH:MM:SS, at most 18 hours. */
const OFFSET = 'Z|[+-](0[0-9]|1[0-8])(:[0-5][0-9](:[0-5][0-9])?|[0-5][0-9])?';

/** The calendar date exists (no 30 February). */
function realDate(raw: string): string {
  return `TRY_CAST(substr(${raw}, 1, 10) AS DATE) IS NOT NULL`;
}

/**
 * At most p-s significant digits before the point and s after, exponents counted: the digits of
 * mantissa and fraction, with the point moved by the exponent, from the first to the last non-zero.
 */
export function decimalTextFits(raw: string, precision: number, scale: number): string {
  const match = `(regexp_extract(${raw}, '^[+-]?([0-9]*)\\.?([0-9]*)([eE]([+-]?[0-9]+))?$', ['i', 'f', 'x', 'e']))`;
  const digits = `(${match}.i || ${match}.f)`;
  const point = `(length(${match}.i) + coalesce(TRY_CAST(nullif(${match}.e, '') AS INTEGER), 0))`;
  const first = `(length(${digits}) - length(ltrim(${digits}, '0')))`;
  const end = `length(rtrim(${digits}, '0'))`;
  const fits = `(greatest(0, ${point} - ${first}) <= ${precision - scale} AND greatest(0, ${end} - ${point}) <= ${scale})`;
  return `(regexp_full_match(${raw}, '${NUMBER}') AND (ltrim(${digits}, '0') = '' OR ${fits}))`;
}

/** The value of valid text in the DuckDB type the oracle compares (the caller guards with textIsValid). */
export function textValue(type: ColumnType, raw: string): string {
  switch (type.kind) {
    case 'string': return raw;
    case 'binary': return `encode(${raw})`;
    case 'int32':
    case 'int64': return `TRY_CAST(${raw} AS BIGINT)`;
    // Decimals compare as doubles anyway (see oracle-rules.ts), and text parses to one exactly rounded.
    case 'float32':
    case 'float64':
    case 'decimal': return floatValue(raw);
    case 'boolean': return `(lower(${raw}) IN ('true', 't'))`;
    case 'date': return `TRY_CAST(substr(${raw}, 1, 10) AS DATE)`;
    case 'timestamp': return `TRY_CAST(${raw} AS TIMESTAMPTZ)`;
    case 'timestamp_ntz': return `TRY_CAST(${raw} AS TIMESTAMP)`;
  }
}

export function floatValue(raw: string): string {
  const lower = `lower(${raw})`;
  return `CASE WHEN ${lower} LIKE '%nan' THEN CAST('nan' AS DOUBLE) WHEN ${lower} LIKE '-inf%' THEN CAST('-inf' AS DOUBLE) WHEN ${lower} LIKE '%inf%' THEN CAST('inf' AS DOUBLE) ELSE TRY_CAST(${raw} AS DOUBLE) END`;
}
