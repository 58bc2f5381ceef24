import type { SpecColumn, SpecColumnSeverity, SpecContract, SpecSeverity } from './contract-spec.js';
import { COLUMN_RULES, declaredColumnRules } from './oracle-severity.js';
import type { Random } from './random-tools.js';

/**
 * Severities for half the seeds: some columns all `warn` or a map of their rules (now and then
 * `error` written out, or a rule the column does not declare, which the loader ignores with a
 * warning), `extra_columns: warn`, and warn for the grain and SLA rules the contract declares.
 */
export function drawSeverity(contract: SpecContract, r: Random): SpecContract {
  if (!r.chance(0.5)) return contract;
  const columns = contract.columns.map((column) => withSeverity(contract, column, r));
  const extraColumns = contract.extraColumns === 'reject' && r.chance(0.3) ? 'warn' : contract.extraColumns;
  const schemaSeverity = pickWarn([
    ...(contract.grain.length > 0 ? ['grain'] : []),
    ...(extraColumns !== 'allow' ? ['extra_columns'] : []),
  ], 0.3, r);
  const { minRows, maxRows, freshness, volumeVsHistory } = contract.sla;
  const slaSeverity = pickWarn([
    ...(minRows !== undefined ? ['min_rows'] : []),
    ...(maxRows !== undefined ? ['max_rows'] : []),
    ...(volumeVsHistory ? ['volume_vs_history'] : []),
    ...(freshness ? ['freshness'] : []),
  ], 0.3, r);
  return {
    ...contract,
    columns,
    extraColumns,
    ...(schemaSeverity ? { schemaSeverity } : {}),
    sla: { ...contract.sla, ...(slaSeverity ? { severity: slaSeverity } : {}) },
  };
}

function withSeverity(contract: SpecContract, column: SpecColumn, r: Random): SpecColumn {
  const severity = r.weighted<() => SpecColumnSeverity | undefined>([
    [6, () => undefined],
    [1, () => ({ all: 'warn' })],
    [3, () => ruleMap(contract, column, r)],
  ])();
  return severity ? { ...column, severity } : column;
}

function ruleMap(contract: SpecContract, column: SpecColumn, r: Random): SpecColumnSeverity | undefined {
  const declared = declaredColumnRules(contract, column);
  const rules: Record<string, SpecSeverity> = {};
  for (const rule of declared) if (r.chance(0.5)) rules[rule] = r.chance(0.8) ? 'warn' : 'error';
  const undeclared = COLUMN_RULES.filter((rule) => !declared.includes(rule));
  if (undeclared.length > 0 && r.chance(0.15)) rules[r.pick(undeclared)] = 'warn';
  return Object.keys(rules).length > 0 ? { rules } : undefined;
}

/** Each rule `warn` with chance p (sometimes `error` written out); undefined when none is written. */
function pickWarn(rules: readonly string[], p: number, r: Random): Record<string, SpecSeverity> | undefined {
  const map: Record<string, SpecSeverity> = {};
  for (const rule of rules) if (r.chance(p)) map[rule] = r.chance(0.85) ? 'warn' : 'error';
  return Object.keys(map).length > 0 ? map : undefined;
}
