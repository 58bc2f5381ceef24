import type { ColumnSeverityRule, ColumnSpec } from '../contract/model.js';
import { exactDigits, exactText, INT32_RANGE, INT64_RANGE, integerBound, temporalBoundText } from './exact-number.js';

/** The contract rules a target format may be unable to state in its own terms. */
export type NotedRule = 'range' | 'pattern' | 'length' | 'requiredWhen' | 'notInFuture' | 'unique';

/**
 * A bound as the contract author wrote it: the model holds temporal bounds as epoch milliseconds,
 * which mean nothing to a reader of a schema, and a number past 2^53 as the double it compares
 * with, printed exactly (see exact-number.ts).
 */
export function formatBound(column: ColumnSpec, side: 'min' | 'max'): string {
  const value = column[side]!;
  if (column.type.kind === 'int32' || column.type.kind === 'int64') return String(exactDigits(column, side, column.type.kind === 'int32' ? INT32_RANGE : INT64_RANGE) ?? integerBound(value, column.type.kind === 'int32' ? INT32_RANGE : INT64_RANGE));
  return temporalBoundText(column, side) ?? String(exactDigits(column, side) ?? exactText(value));
}

/** Short clauses for the given rules of a column, e.g. `at least 0`, `not in the future`. */
function ruleNotes(column: ColumnSpec, rules: readonly NotedRule[]): string[] {
  const notes: string[] = [];
  for (const rule of rules) {
    const note = noteFor(column, rule);
    if (note) notes.push(note);
  }
  return notes;
}

const SEVERITY_KEY: Readonly<Record<Exclude<NotedRule, 'range'>, ColumnSeverityRule>> = {
  pattern: 'pattern', length: 'length', requiredWhen: 'required_when', notInFuture: 'not_in_future', unique: 'unique',
};

/**
 * The same clauses, each marked when the contract only warns about it: a reader must not take a
 * warning for a promise. A range whose ends weigh differently is two clauses.
 */
export function weighedRuleNotes(column: ColumnSpec, rules: readonly NotedRule[]): string[] {
  const warns = (rule: ColumnSeverityRule) => column.severity?.[rule] === 'warn';
  const mark = (note: string, warn: boolean) => (warn ? `${note} (severity warn: reported, not blocking)` : note);
  return rules.flatMap((rule) => {
    if (rule !== 'range') return ruleNotes(column, [rule]).map((note) => mark(note, warns(SEVERITY_KEY[rule])));
    const { min, max } = column;
    if (min === undefined || max === undefined || warns('min') === warns('max')) return ruleNotes(column, ['range']).map((note) => mark(note, warns(min === undefined ? 'max' : 'min')));
    return [mark(`at least ${formatBound(column, 'min')}`, warns('min')), mark(`at most ${formatBound(column, 'max')}`, warns('max'))];
  });
}

/** A reference pinned to a major version or a partition: a foreign-key test on the whole table cannot say it. */
export function referencePinNote(column: ColumnSpec): string | undefined {
  const reference = column.references;
  if (!reference || (reference.major === undefined && reference.partition === undefined)) return undefined;
  const pins = [reference.major === undefined ? undefined : `major ${reference.major}`, reference.partition === undefined ? undefined : `partition ${reference.partition}`].filter((p) => p !== undefined);
  return `values exist in ${reference.contract}.${reference.column} as of its ${pins.join(', ')}`;
}

function noteFor(column: ColumnSpec, rule: NotedRule): string | undefined {
  switch (rule) {
    case 'range': return rangeNote(column);
    case 'pattern': return column.pattern === undefined ? undefined : `matches /${column.pattern}/`;
    case 'length': return lengthNote(column);
    case 'requiredWhen': {
      const when = column.requiredWhen;
      return when && `required when ${when.column} is ${when.in.map(String).join(' or ')}`;
    }
    case 'notInFuture': return column.notInFuture ? 'not in the future' : undefined;
    case 'unique': return column.unique ? 'unique within each partition' : undefined;
  }
}

function rangeNote(column: ColumnSpec): string | undefined {
  const { min, max } = column;
  if (min !== undefined && max !== undefined) return `between ${formatBound(column, 'min')} and ${formatBound(column, 'max')}`;
  if (min !== undefined) return `at least ${formatBound(column, 'min')}`;
  if (max !== undefined) return `at most ${formatBound(column, 'max')}`;
  return undefined;
}

function lengthNote(column: ColumnSpec): string | undefined {
  const { minLength: min, maxLength: max } = column;
  if (min !== undefined && max !== undefined) return `${min} to ${max} characters`;
  if (min !== undefined) return `at least ${min} characters`;
  if (max !== undefined) return `at most ${max} characters`;
  return undefined;
}
