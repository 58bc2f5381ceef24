import type { Severity } from '../contract/model.js';
import { MAX_SAMPLES, RULE_ORDER, type RuleId, type Sample, type Violation } from '../report/report.js';
import type { SeverityOf } from './rule-severity.js';

/** One rule's findings so far; plain data, so slices checked elsewhere can send theirs back. */
export interface LogEntry {
  readonly rule: RuleId;
  readonly column: string | undefined;
  count: number;
  readonly samples: Sample[];
  detail: string;
  /** Set when the finding itself says (a lag past warn_lag_hours); else the contract's severity for the rule. */
  readonly severity?: Severity;
}

/**
 * Collects violations as counts plus the first few samples, so memory stays bounded however many
 * rows break a rule. Messages are written once at the end, from the final counts.
 */
export class ViolationLog {
  private readonly entriesByKey = new Map<string, LogEntry>();

  constructor(
    private readonly columnOrder: readonly string[],
    private readonly severityOf: SeverityOf = () => 'error',
  ) {}

  /**
   * Adds one occurrence. `detail` is the message template; occurrences with the same rule and
   * column but another template (an unreadable file vs. an unreadable line) are kept apart.
   */
  add(rule: RuleId, column: string | undefined, detail: string, sample: Sample): void {
    this.addTotal(rule, column, detail, 1, [sample]);
  }

  /** The findings as plain data, in the order they were first seen. */
  entries(): LogEntry[] {
    return [...this.entriesByKey.values()];
  }

  /** Adds another log's findings after this one's: counts add up, samples keep their order. */
  absorb(entries: readonly LogEntry[]): void {
    for (const entry of entries) this.addTotal(entry.rule, entry.column, entry.detail, entry.count, entry.samples, entry.severity);
  }

  addTotal(rule: RuleId, column: string | undefined, detail: string, count: number, samples: readonly Sample[], severity?: Severity): void {
    const key = `${rule}\u0000${column ?? ''}\u0000${detail}\u0000${severity ?? ''}`;
    let entry = this.entriesByKey.get(key);
    if (!entry) {
      entry = { rule, column, count: 0, samples: [], detail, ...(severity ? { severity } : {}) };
      this.entriesByKey.set(key, entry);
    }
    entry.count += count;
    for (const sample of samples) if (entry.samples.length < MAX_SAMPLES) entry.samples.push(sample);
  }

  violations(): Violation[] {
    const rank = (entry: LogEntry) => {
      const index = entry.column === undefined ? -1 : this.columnOrder.indexOf(entry.column);
      return index === -1 && entry.column !== undefined ? this.columnOrder.length : index;
    };
    return [...this.entriesByKey.values()]
      .sort((a, b) => RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule) || rank(a) - rank(b) || (a.column ?? '').localeCompare(b.column ?? ''))
      .map((entry) => ({
        rule: entry.rule,
        severity: (entry.severity ?? this.severityOf(entry.rule, entry.column)) === 'warn' ? ('warning' as const) : ('error' as const),
        ...(entry.column === undefined ? {} : { column: entry.column }),
        count: entry.count,
        message: renderDetail(entry.detail, entry.count),
        samples: entry.samples,
      }));
  }
}

/** A message template for a count: `{count}` filled in, `{one|many}` chosen. */
export function renderDetail(detail: string, count: number): string {
  return detail.replaceAll('{count}', String(count)).replace(/\{(\w+)\|(\w+)\}/g, (_, one: string, many: string) => (count === 1 ? one : many));
}
