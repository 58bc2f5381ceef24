import { isScalar, type Node } from 'yaml';
import { foreignKeyHints } from './foreign-keys.js';
import type { RowTolerance } from './model.js';
import type { YamlReader } from './yaml-reader.js';

export const ON_VIOLATION_KEYS = ['row_tolerance', 'max_invalid_rows'] as const;

/**
 * `on_violation: { row_tolerance: 0.02 }` or `{ max_invalid_rows: 100 }`, exactly one: how many
 * rows breaking row-level rules are withheld before the whole batch is quarantined instead.
 */
export function readOnViolation(reader: YamlReader, node: Node | null): RowTolerance | undefined {
  const entries = reader.map(node, 'on_violation', ON_VIOLATION_KEYS, foreignKeyHints('on_violation'));
  if (!entries) return undefined;
  const fraction = entries.get('row_tolerance');
  const count = entries.get('max_invalid_rows');
  if (fraction && count) {
    reader.report('conflicting_keys', 'on_violation.max_invalid_rows', count.key, 'write row_tolerance (a fraction of the rows) or max_invalid_rows (a number of rows), not both');
    return undefined;
  }
  if (fraction) {
    const rowTolerance = readFraction(reader, fraction.value, 'on_violation.row_tolerance');
    return rowTolerance === undefined ? undefined : { rowTolerance };
  }
  if (count) {
    const maxInvalidRows = reader.number(count.value, 'on_violation.max_invalid_rows', { integer: true, min: 0 });
    return maxInvalidRows === undefined ? undefined : { maxInvalidRows };
  }
  reader.report('missing_key', 'on_violation.row_tolerance', node, 'on_violation needs row_tolerance (a fraction of the rows, e.g. 0.02) or max_invalid_rows (a number of rows, e.g. 100)');
  return undefined;
}

/** A fraction 0 <= x < 1; `2` or `"2%"` are told how to write 2%. */
function readFraction(reader: YamlReader, node: Node | null, path: string): number | undefined {
  const raw = node && isScalar(node) ? node.value : undefined;
  const percent = typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*%\s*$/.exec(raw) : null;
  if (percent) {
    reader.report('wrong_type', path, node, `expected a fraction, found "${raw}": write ${asFraction(Number(percent[1]))} for ${percent[1]}%`);
    return undefined;
  }
  const value = reader.number(node, path, { min: 0 });
  if (value === undefined || value < 1) return value;
  reader.report('invalid_value', path, node, `expected a fraction of the rows, at least 0 and below 1, found ${value}; a fraction: 0.02 is 2%${value < 100 ? ` (for ${value}% write ${asFraction(value)})` : ''}`);
  return undefined;
}

/** 2 → 0.02, without the float noise of 2.3 / 100. */
function asFraction(percent: number): number {
  return Number((percent / 100).toPrecision(12));
}
