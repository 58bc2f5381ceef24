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
    // Exact: the text has at most s digits after the point (textIsValid), exponents counted.
    case 'decimal': return `TRY_CAST(${raw} AS DECIMAL(38,${type.scale}))`;
    case 'float32':
    case 'float64': return floatValue(raw);
    case 'boolean': return `(lower(${raw}) IN ('true', 't'))`;
    case 'date': return `TRY_CAST(substr(${raw}, 1, 10) AS DATE)`;
    case 'timestamp': return textNanos(raw, 'TIMESTAMPTZ');
    case 'timestamp_ntz': return textNanos(raw, 'TIMESTAMP');
  }
}

/**
 * Exact epoch nanoseconds of a timestamp's text: DuckDB's casts keep microseconds, so the 7th-9th
 * fraction digits are cut before the cast and added after (a positive part, before 1970 too).
 */
function textNanos(raw: string, type: 'TIMESTAMPTZ' | 'TIMESTAMP'): string {
  const micros = `TRY_CAST(regexp_replace(${raw}, '(\\.[0-9]{6})[0-9]+', '\\1') AS ${type})`;
  const sub = `TRY_CAST(rpad(regexp_extract(${raw}, '\\.[0-9]{6}([0-9]{1,3})', 1), 3, '0') AS INTEGER)`;
  return `(CAST(epoch_us(${micros}) AS HUGEINT) * 1000 + coalesce(${sub}, 0))`;
}

export function floatValue(raw: string): string {
  const lower = `lower(${raw})`;
  return `CASE WHEN ${lower} LIKE '%nan' THEN CAST('nan' AS DOUBLE) WHEN ${lower} LIKE '-inf%' THEN CAST('-inf' AS DOUBLE) WHEN ${lower} LIKE '%inf%' THEN CAST('inf' AS DOUBLE) ELSE TRY_CAST(${raw} AS DOUBLE) END`;
}
