import type { CheckPlan } from '../checks/check-plan.js';
import { formatJunit, type JunitCase, type JunitSuite } from './junit-xml.js';
import type { Report, RuleId, Sample, Violation } from './report.js';

/** One check of the plan: a rule, on a column or on the whole partition. */
interface PlannedCheck {
  readonly rule: RuleId;
  readonly column?: string;
}

/**
 * `validate --format junit`: one testsuite for the partition, one testcase per check of the
 * contract's plan, so a CI test view lists what was checked and not only what broke. A finding
 * outside the plan (a retired contract, a bad manifest) gets a testcase of its own.
 */
export function formatJunitReport(report: Report, plan: CheckPlan): string {
  const { name, version } = report.contract;
  const byCheck = groupViolations(report.violations);
  const planned = plannedChecks(plan);
  const keys = new Set(planned.map(checkKey));
  const unplanned = [...byCheck.keys()].filter((key) => !keys.has(key)).map((key) => byCheck.get(key)![0]!);
  const cases = [...planned, ...unplanned].map((check) => testcase(name, check, byCheck.get(checkKey(check)) ?? []));
  const properties: [string, string][] = [['contract', name], ['version', version], ['status', report.status], ['rows', String(report.rows)], ['files', String(report.files.length)]];
  const suite: JunitSuite = { name: `${name} ${version}`, timestamp: report.checked_at, properties, cases };
  return formatJunit(`contract-gate validate ${name} ${version}`, [suite]);
}

/** The plan's checks in report order: what stops reading, then schema, values, the partition. */
export function plannedChecks(plan: CheckPlan): PlannedCheck[] {
  const checks: PlannedCheck[] = [{ rule: 'unreadable' }];
  for (const { spec } of plan.columns) checks.push({ rule: 'missing_column', column: spec.name });
  if (plan.extraColumns !== 'allow') checks.push({ rule: 'unexpected_column' });
  for (const { spec, mustHaveValue, rules } of plan.columns) {
    const column = spec.name;
    checks.push({ rule: 'type', column });
    if (mustHaveValue || spec.requiredWhen) checks.push({ rule: 'required', column });
    for (const rule of new Set(rules.map((r) => r.rule))) checks.push({ rule, column });
    if (spec.unique) checks.push({ rule: 'unique', column });
  }
  if (plan.grain.length > 0) checks.push({ rule: 'grain' });
  if (plan.volume.minRows !== undefined) checks.push({ rule: 'min_rows' });
  if (plan.volume.maxRows !== undefined) checks.push({ rule: 'max_rows' });
  if (plan.history) checks.push({ rule: 'volume_vs_history' });
  if (plan.freshness) checks.push({ rule: 'freshness', column: plan.freshness.column });
  for (const reference of plan.references) checks.push({ rule: 'references', column: reference.column });
  if (plan.referenceRows?.rows.some((row) => row.required)) checks.push({ rule: 'reference_missing' });
  for (const column of plan.referenceRows?.columns ?? []) checks.push({ rule: 'reference_value', column });
  return checks;
}

/** Extra columns are one check whichever columns turn up, so they share one key. */
function checkKey(check: PlannedCheck): string {
  return check.rule === 'unexpected_column' ? check.rule : `${check.rule}\u0000${check.column ?? ''}`;
}

/** A check may hold several entries: a NaN under `min` beside values below it, an unreadable file and line. */
function groupViolations(violations: readonly Violation[]): Map<string, Violation[]> {
  const groups = new Map<string, Violation[]>();
  for (const violation of violations) {
    const key = checkKey(violation);
    groups.set(key, [...(groups.get(key) ?? []), violation]);
  }
  return groups;
}

function testcase(dataset: string, check: PlannedCheck, found: readonly Violation[]): JunitCase {
  const column = check.rule === 'unexpected_column' ? undefined : check.column;
  const base = { classname: column === undefined ? dataset : `${dataset}.${column}`, name: column === undefined ? check.rule : `${check.rule} ${column}` };
  if (found.length === 0) return base;
  // A warning does not fail the check: it is told beside the passing case.
  if (found.every((v) => v.severity === 'warning')) return { ...base, output: `warning: ${found.map(failureText).join('\n\n')}` };
  // The attribute is the headline a test view lists; further lines (a fix) are in the text.
  const message = found.map((v) => `${v.column && column === undefined ? `${v.column}: ` : ''}${v.message.split(/\r?\n/)[0]}`).join('; ');
  return { ...base, failure: { message, type: check.rule, text: found.map(failureText).join('\n\n') } };
}

function failureText(violation: Violation): string {
  const lines = [`count: ${violation.count}`, violation.message];
  if (violation.samples.length > 0) lines.push('samples:', ...violation.samples.map((s) => `  ${sampleText(s)}`));
  return lines.join('\n');
}

function sampleText(sample: Sample): string {
  const place = sample.row === null ? sample.file : `${sample.file} row ${sample.row}`;
  return sample.value === null ? place : `${place}: ${JSON.stringify(sample.value)}`;
}
