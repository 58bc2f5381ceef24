import type { Node } from 'yaml';
import { formatColumnType, isTemporalType } from './column-type.js';
import type { ColumnSpec } from './model.js';
import { compilePattern } from './pattern-matcher.js';
import { parseTemporal } from './temporal.js';
import type { YamlReader } from './yaml-reader.js';

/**
 * `default` is what a row that lacks the column reads as: a file written before the column
 * existed, or a JSON line without the key. The engine fills it in and judges it by the column's
 * rules, and the change classifier counts on it, so a default that cannot be such a value is an
 * error here, once, rather than a violation in every row of every old file.
 */
export function checkDefault(reader: YamlReader, column: ColumnSpec, node: Node | null | undefined, path: string, inGrain: boolean): void {
  const value = column.default;
  if (value === undefined) return;
  const problem = keyProblem(column, inGrain) ?? typeProblem(column, value) ?? ruleProblem(column, value);
  if (problem) reader.report('invalid_value', path, node, problem);
}

function keyProblem(column: ColumnSpec, inGrain: boolean): string | undefined {
  if (!inGrain && !column.unique) return undefined;
  const what = inGrain ? 'part of the grain' : 'unique';
  return `a column that is ${what} cannot have a default: every row written without it would read as the same value and repeat; remove default, or add the column without ${inGrain ? 'making it part of the grain' : 'unique'}`;
}

function typeProblem(column: ColumnSpec, value: string | number | boolean): string | undefined {
  const { type } = column;
  const expected = `expected a default of type ${formatColumnType(type)}`;
  switch (type.kind) {
    case 'string':
    case 'binary': return typeof value === 'string' ? undefined : `${expected}, found ${JSON.stringify(value)}; quote it`;
    case 'boolean': return typeof value === 'boolean' ? undefined : `${expected} (true or false), found ${JSON.stringify(value)}`;
    case 'int32':
    case 'int64': return typeof value === 'number' && Number.isSafeInteger(value) && (type.kind === 'int64' || Math.abs(value) < 2 ** 31) ? undefined : `${expected} (a whole number), found ${JSON.stringify(value)}`;
    case 'float32':
    case 'float64': return typeof value === 'number' ? undefined : `${expected} (a number), found ${JSON.stringify(value)}`;
    case 'decimal': return decimalProblem(type, value, expected);
    default: return typeof value === 'string' && parseTemporal(value, type.kind === 'date' ? 'date' : 'timestamp') !== undefined ? undefined : `${expected} (an ISO-8601 ${type.kind === 'date' ? 'date such as "2026-01-01"' : 'timestamp such as "2026-01-01T00:00:00Z"'}), found ${JSON.stringify(value)}`;
  }
}

function decimalProblem(type: { precision: number; scale: number }, value: string | number | boolean, expected: string): string | undefined {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const match = /^[+-]?(\d*)(?:\.(\d*))?$/.exec(text);
  const whole = (match?.[1] ?? '').replace(/^0+/, '');
  const fraction = (match?.[2] ?? '').replace(/0+$/, '');
  if (match && whole.length <= type.precision - type.scale && fraction.length <= type.scale && text !== '') return undefined;
  return `${expected} (at most ${type.precision - type.scale} digits before the point and ${type.scale} after), found ${JSON.stringify(value)}`;
}

/** The default must pass the column's own value rules, or every old row would fail them. */
function ruleProblem(column: ColumnSpec, value: string | number | boolean): string | undefined {
  const shown = JSON.stringify(value);
  if (column.enum && !column.enum.some((allowed) => String(allowed) === String(value))) return `the default ${shown} is not one of the column's enum values [${column.enum.join(', ')}]`;
  const ordered = isTemporalType(column.type) ? parseTemporal(String(value), column.type.kind === 'date' ? 'date' : 'timestamp') : Number(value);
  if (column.min !== undefined && ordered !== undefined && ordered < column.min) return `the default ${shown} is below the column's min`;
  if (column.max !== undefined && ordered !== undefined && ordered > column.max) return `the default ${shown} is above the column's max`;
  if (typeof value !== 'string' || column.type.kind !== 'string') return undefined;
  const length = [...value].length;
  if (column.minLength !== undefined && length < column.minLength) return `the default ${shown} is shorter than min_length ${column.minLength}`;
  if (column.maxLength !== undefined && length > column.maxLength) return `the default ${shown} is longer than max_length ${column.maxLength}`;
  if (column.pattern !== undefined && !compilePattern(column.pattern).test(value)) return `the default ${shown} does not match the column's pattern ${column.pattern}`;
  return undefined;
}
