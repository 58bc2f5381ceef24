import { isTemporalType } from '../contract/column-type.js';
import type { ColumnSpec } from '../contract/model.js';
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
