import { mustHaveValue, type SpecColumn, type SpecContract } from './contract-spec.js';

/** How a finding weighs in the report: `warn` in the contract is a `warning` there. */
export type FindingSeverity = 'error' | 'warning';

/** The column rules a `severity` may name, and which of them a column declares (README, "Severity"). */
export function declaredColumnRules(contract: SpecContract, column: SpecColumn): string[] {
  const declared: [string, boolean][] = [
    ['required', mustHaveValue(contract, column)],
    ['required_when', column.requiredWhen !== undefined],
    ['type', true],
    ['enum', column.enum !== undefined],
    ['min', column.min !== undefined],
    ['max', column.max !== undefined],
    ['pattern', column.pattern !== undefined],
    ['length', column.minLength !== undefined || column.maxLength !== undefined],
    ['not_in_future', column.notInFuture],
    ['unique', column.unique],
    ['references', column.references !== undefined],
  ];
  return declared.filter(([, has]) => has).map(([rule]) => rule);
}

export const COLUMN_RULES = ['required', 'required_when', 'type', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'unique', 'references'];
const SLA_RULES = new Set(['min_rows', 'max_rows', 'volume_vs_history', 'freshness']);

/**
 * The severity of a count key (`rule` or `rule:column`) as the contract says it. A null in a
 * column that need not have a value can only break required_when, so that key weighs it. Rules
 * about reading at all (missing_column, unreadable) are always errors.
 */
export function severityOfKey(contract: SpecContract, key: string): FindingSeverity {
  const at = key.indexOf(':');
  const rule = at === -1 ? key : key.slice(0, at);
  const name = at === -1 ? undefined : key.slice(at + 1);
  if (rule === 'grain') return weigh(contract.schemaSeverity?.grain);
  if (rule === 'unexpected_column') return contract.extraColumns === 'warn' ? 'warning' : weigh(contract.schemaSeverity?.extra_columns);
  if (SLA_RULES.has(rule)) return weigh(contract.sla.severity?.[rule]);
  const column = contract.columns.find((c) => c.name === name);
  if (!column?.severity || !COLUMN_RULES.includes(rule)) return 'error';
  const named = rule === 'required' && !mustHaveValue(contract, column) ? 'required_when' : rule;
  return 'all' in column.severity ? 'warning' : weigh(column.severity.rules[named]);
}

function weigh(severity: string | undefined): FindingSeverity {
  return severity === 'warn' ? 'warning' : 'error';
}
