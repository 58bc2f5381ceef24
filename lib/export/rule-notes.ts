import { isTemporalType } from '../contract/column-type.js';
import type { ColumnSeverityRule, ColumnSpec, RowTolerance } from '../contract/model.js';
import { formatDate, formatTimestamp } from '../contract/temporal.js';

/** The contract rules a target format may be unable to state in its own terms. */
export type NotedRule = 'range' | 'pattern' | 'length' | 'requiredWhen' | 'notInFuture' | 'unique';

/**
 * A bound as the contract author wrote it: the model holds temporal bounds as epoch milliseconds,
 * which mean nothing to a reader of a schema.
 */
export function formatBound(column: ColumnSpec, value: number): string {
  if (!isTemporalType(column.type)) return String(value);
  if (column.type.kind === 'date') return formatDate(value);
  const instant = formatTimestamp(value);
  // A wall-clock bound was read as if UTC; printing the `Z` would claim an offset it never had.
  return column.type.kind === 'timestamp_ntz' ? instant.replace(/Z$/, '') : instant;
}

/** Short clauses for the given rules of a column, e.g. `at least 0`, `not in the future`. */
export function ruleNotes(column: ColumnSpec, rules: readonly NotedRule[]): string[] {
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
    return [mark(`at least ${formatBound(column, min)}`, warns('min')), mark(`at most ${formatBound(column, max)}`, warns('max'))];
  });
}

/** A reference pinned to a major version or a partition: a foreign-key test on the whole table cannot say it. */
export function referencePinNote(column: ColumnSpec): string | undefined {
  const reference = column.references;
  if (!reference || (reference.major === undefined && reference.partition === undefined)) return undefined;
  const pins = [reference.major === undefined ? undefined : `major ${reference.major}`, reference.partition === undefined ? undefined : `partition ${reference.partition}`].filter((p) => p !== undefined);
  return `values exist in ${reference.contract}.${reference.column} as of its ${pins.join(', ')}`;
}

/**
 * What `on_violation` does, for a reader of an export that has no word for it: the rows breaking
 * row-level rules are withheld, up to the tolerance, and the rest is published.
 */
export function toleranceNote(tolerance: RowTolerance): string {
  const limit = 'rowTolerance' in tolerance ? `${Number((tolerance.rowTolerance * 100).toPrecision(6))}% of a batch's rows` : `${tolerance.maxInvalidRows} rows of a batch`;
  return `contract-gate withholds rows that break row-level rules, up to ${limit}, and publishes the rest; past that the whole batch is quarantined.`;
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
  if (min !== undefined && max !== undefined) return `between ${formatBound(column, min)} and ${formatBound(column, max)}`;
  if (min !== undefined) return `at least ${formatBound(column, min)}`;
  if (max !== undefined) return `at most ${formatBound(column, max)}`;
  return undefined;
}

function lengthNote(column: ColumnSpec): string | undefined {
  const { minLength: min, maxLength: max } = column;
  if (min !== undefined && max !== undefined) return `${min} to ${max} characters`;
  if (min !== undefined) return `at least ${min} characters`;
  if (max !== undefined) return `at most ${max} characters`;
  return undefined;
}

/** A column description followed by the notes, e.g. `Order total. contract-gate also checks: at least 0.` */
export function describeWithNotes(description: string | undefined, notes: readonly string[]): string | undefined {
  const tail = notes.length === 0 ? undefined : `contract-gate also checks: ${notes.join('; ')}.`;
  const head = description?.trim();
  if (head && tail) return `${/[.!?]$/.test(head) ? head : `${head}.`} ${tail}`;
  return head || tail;
}
