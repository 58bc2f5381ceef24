import type { ColumnSeverityRule, ColumnSpec, Severity } from '../contract/model.js';
import { change, type ChangeClass, type ChangeId, type RawChange } from './contract-diff.js';

/** Whether a column declares a rule; `required` also covers a grain column, which must hold a value. */
export function declares(column: ColumnSpec, rule: ColumnSeverityRule, inGrain = false): boolean {
  switch (rule) {
    case 'required': return column.required || inGrain;
    case 'required_when': return column.requiredWhen !== undefined;
    case 'type': return true;
    case 'enum': return column.enum !== undefined;
    case 'min': return column.min !== undefined;
    case 'max': return column.max !== undefined;
    case 'pattern': return column.pattern !== undefined;
    case 'length': return column.minLength !== undefined || column.maxLength !== undefined;
    case 'not_in_future': return column.notInFuture;
    case 'unique': return column.unique;
    case 'references': return column.references !== undefined;
  }
}

export function columnSeverity(column: ColumnSpec, rule: ColumnSeverityRule): Severity {
  return column.severity?.[rule] ?? 'error';
}

/**
 * Why a change of a rule stops no data, or undefined when the rule is an error in each version
 * that declares it. A warn rule reports rows and stops none, so changing what it accepts only
 * changes what is reported; whether data is newly stopped or let through is the severity change's
 * to say (severity-changes.ts), reported on its own. `old`/`next`: the rule's severity in each
 * version, undefined where the version does not declare the rule.
 */
export function warnNote(rule: string, old: Severity | undefined, next: Severity | undefined): string | undefined {
  if (old !== 'warn' && next !== 'warn') return undefined;
  const where = old === 'warn' && next === 'warn' ? '' : old === 'warn' ? ' in the old version' : ' in the new version';
  const also = old !== undefined && next !== undefined && old !== next ? '; the change of its severity is reported on its own' : '';
  return `${rule} is severity warn${where}: it reports and stops no data, so this changes only what is reported${also}`;
}

/** The weight of one column rule across the two versions of the column. */
export function columnRuleNote(rule: ColumnSeverityRule, old: ColumnSpec, next: ColumnSpec): string | undefined {
  const weight = (column: ColumnSpec) => (declares(column, rule) ? columnSeverity(column, rule) : undefined);
  return warnNote(rule, weight(old), weight(next));
}

/**
 * A rule change classed by what it does at error severity, unless `note` says the rule is a
 * warning: then it can stop or let through no data, and a breaking change is only flagged.
 */
export function weighed(id: ChangeId, column: string | null, cls: ChangeClass, text: string, why: string, note: string | undefined): RawChange {
  if (note === undefined) return change(id, column, cls, `${text}: ${why}`);
  return change(id, column, cls === 'breaking' ? 'flagged' : cls, `${text}: ${note}`);
}
