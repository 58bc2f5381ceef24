import type { ColumnType } from '../../lib/contract/column-type.js';
import type { SpecContract } from './contract-spec.js';
import { queryRows, sqlString } from './duckdb-session.js';
import { sourceFor, type ColumnAccess, type FileView } from './file-view.js';
import { decimalTextFits, floatValue, textIsValid, textValue } from './oracle-text.js';

/** A JSON Lines file: no column is ever missing (an absent key is null); extra keys are its names. */
export async function jsonlView(contract: SpecContract, path: string): Promise<FileView> {
  const from = sourceFor('jsonl', path);
  const keys = await queryRows(`SELECT DISTINCT unnest(json_keys(json)) AS k FROM ${from}`);
  const columns = new Map<string, ColumnAccess | 'missing' | 'mistyped'>(contract.columns.map((c) => [c.name, jsonAccess(c.type, c.name)]));
  return { from, names: keys.map((row) => String(row.k)), columns };
}

/**
 * README, "JSON Lines" and its type table: an absent key is null; numbers for numbers (bare NaN
 * and ±Infinity are floats), int64 also as a long literal or a string of digits, decimals also as
 * strings, temporal values as strings read like CSV fields.
 */
function jsonAccess(type: ColumnType, name: string): ColumnAccess {
  const path = `'$.${JSON.stringify(name)}'`;
  const t = `json_type(json, ${path})`;
  const n = `TRY_CAST(json_extract(json, ${path}) AS DOUBLE)`;
  const asText = `${t} = 'VARCHAR'`;
  // DuckDB reads a JSON number as a double: a decimal's digits come from the line's own text.
  const text = type.kind === 'decimal' ? `CASE WHEN ${asText} THEN json_extract_string(json, ${path}) ELSE ${rawNumber(name)} END` : `json_extract_string(json, ${path})`;
  const isNull = `(${t} IS NULL OR ${t} = 'NULL')`;
  const [valid, value] = jsonRule(type, { t, text, n, asText });
  return { isNull, isInvalid: `(NOT ${isNull} AND NOT (${valid}))`, value: `CASE WHEN ${valid} THEN ${value} END` };
}

/** The number after the key in the raw line (read_ndjson_objects keeps each line's text). */
function rawNumber(name: string): string {
  const key = JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `regexp_extract(CAST(json AS VARCHAR), ${sqlString(`${key}\\s*:\\s*(-?[0-9][0-9.eE+-]*)`)}, 1)`;
}

interface JsonParts {
  readonly t: string;
  readonly text: string;
  readonly n: string;
  readonly asText: string;
}

function jsonRule(type: ColumnType, { t, text, n, asText }: JsonParts): [string, string] {
  const numeric = `${t} IN ('BIGINT', 'UBIGINT', 'DOUBLE')`;
  const literal = `${t} IN ('BIGINT', 'UBIGINT')`;
  const integral = `(${numeric} AND ${n} = floor(${n}))`;
  switch (type.kind) {
    case 'string': return [asText, text];
    case 'binary': return [asText, `encode(${text})`];
    case 'int32': return [`(${integral} AND ${n} BETWEEN -2147483648 AND 2147483647)`, `CAST(${n} AS BIGINT)`];
    case 'int64': {
      const exact = `(${literal} AND TRY_CAST(${text} AS HUGEINT) BETWEEN -9223372036854775808 AND 9223372036854775807)`;
      const safe = `(${t} = 'DOUBLE' AND ${integral} AND abs(${n}) <= 9007199254740991)`;
      return [`(${exact} OR ${safe} OR (${asText} AND ${textIsValid(type, text)}))`, `COALESCE(TRY_CAST(${text} AS BIGINT), CAST(${n} AS BIGINT))`];
    }
    case 'float32':
    case 'float64': return [`(${numeric} OR (${asText} AND regexp_full_match(lower(${text}), '[+-]?(nan|inf|infinity)')))`, `CASE WHEN ${asText} THEN ${floatValue(text)} ELSE ${n} END`];
    case 'decimal': return [`((${numeric} AND isfinite(${n}) AND ${decimalTextFits(text, type.precision, type.scale)}) OR (${asText} AND ${textIsValid(type, text)}))`, textValue(type, text)];
    case 'boolean': return [`${t} = 'BOOLEAN'`, `(${text} = 'true')`];
    default: return [`(${asText} AND ${textIsValid(type, text)})`, textValue(type, text)];
  }
}
