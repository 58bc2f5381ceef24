import { RULE_ORDER, type Report, type RuleId, type SampleValue } from '../report/report.js';

/**
 * One reason across partitions: the same rule on the same column, with the same first sample
 * value (or, when a violation has no value, the same message), counted in how many partitions.
 */
export interface ViolationGroup {
  readonly rule: RuleId;
  readonly column: string | null;
  /** The first sample's value: what the data holds that the contract now refuses. */
  readonly value: SampleValue;
  /** The violation's first line, said instead of a value when it has none (min_rows, a missing column). */
  readonly message: string | null;
  readonly partitions: number;
}

const VALUE_SHOWN = 40;

/** Groups the violations of many reports, most widespread first, then in report order. */
export function groupViolations(reports: readonly Report[]): ViolationGroup[] {
  const groups = new Map<string, { group: ViolationGroup; partitions: number }>();
  for (const report of reports) {
    for (const key of new Set(report.violations.map((violation) => JSON.stringify(groupOf(violation))))) {
      const found = groups.get(key) ?? { group: JSON.parse(key) as ViolationGroup, partitions: 0 };
      found.partitions += 1;
      groups.set(key, found);
    }
  }
  return [...groups.values()]
    .map(({ group, partitions }) => ({ ...group, partitions }))
    .sort((a, b) => b.partitions - a.partitions || RULE_ORDER.indexOf(a.rule) - RULE_ORDER.indexOf(b.rule));
}

/** The group's identity, in a fixed key order so its JSON text is a map key. */
function groupOf(violation: Report['violations'][number]): Omit<ViolationGroup, 'partitions'> {
  const value = violation.samples[0]?.value ?? null;
  const message = value === null ? (violation.message.split('\n')[0] ?? '') : null;
  return { rule: violation.rule, column: violation.column ?? null, value, message };
}

/**
 * `enum status: "refunded" in 3`, as the summary lists it; a message in parentheses, so its own
 * words do not run into the count: `max_rows (the partition has 1500 rows; ...) in 1`.
 */
export function formatGroup(group: ViolationGroup): string {
  const where = group.column === null ? group.rule : `${group.rule} ${group.column}`;
  const what = group.message === null ? `: ${shortValue(group.value)}` : ` (${group.message})`;
  return `${where}${what} in ${group.partitions}`;
}

/** A sample value as the text report quotes it, cut short: the summary is one line per reason. */
export function shortValue(value: SampleValue): string {
  const text = JSON.stringify(value);
  return text.length > VALUE_SHOWN ? `${text.slice(0, VALUE_SHOWN - 1)}…` : text;
}
