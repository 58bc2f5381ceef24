import type { ColumnSeverityRule, Contract, Severity, SlaSeverityRule } from '../contract/model.js';
import type { RuleId } from '../report/report.js';

/** How much a finding of `rule` on `column` weighs, as the contract says (default `error`). */
export type SeverityOf = (rule: RuleId, column?: string) => Severity;

const SLA_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['min_rows', 'max_rows', 'volume_vs_history', 'freshness']);

/**
 * The contract's severities as one lookup. A `required` finding on a column that is neither
 * required nor in the grain can only come from `required_when`, so that key weighs it. Rules
 * about reading at all (no contract, unreadable, missing column, ...) are always errors.
 */
export function severityOf(contract: Contract): SeverityOf {
  const columns = new Map(contract.schema.columns.map((c) => [c.name, c]));
  const { grain, severity: schema } = contract.schema;
  const sla = contract.sla?.severity;
  return (rule, column) => {
    if (rule === 'grain') return schema?.grain ?? 'error';
    if (rule === 'unexpected_column') return contract.schema.extraColumns === 'warn' ? 'warn' : (schema?.extra_columns ?? 'error');
    if (SLA_RULES.has(rule)) return sla?.[rule as SlaSeverityRule] ?? 'error';
    const spec = column === undefined ? undefined : columns.get(column);
    if (!spec?.severity) return 'error';
    if (rule === 'required') return spec.severity[spec.required || grain.includes(spec.name) ? 'required' : 'required_when'] ?? 'error';
    return COLUMN_RULES.has(rule) ? (spec.severity[rule as ColumnSeverityRule] ?? 'error') : 'error';
  };
}

const COLUMN_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['type', 'enum', 'min', 'max', 'pattern', 'length', 'not_in_future', 'unique', 'references']);

/** `--strict`: the contract with every warning an error. */
export function strictContract(contract: Contract): Contract {
  const { severity: _schema, ...schema } = contract.schema;
  const sla = contract.sla ? (({ severity: _sla, ...rest }) => rest)(contract.sla) : undefined;
  return {
    ...contract,
    schema: { ...schema, extraColumns: schema.extraColumns === 'warn' ? 'reject' : schema.extraColumns, columns: schema.columns.map(({ severity: _column, ...column }) => column) },
    ...(contract.referenceRows ? { referenceRows: contract.referenceRows.map(({ severity: _row, ...row }) => row) } : {}),
    ...(sla ? { sla: { ...sla, ...(sla.warnLagHours !== undefined && sla.maxLagHours === undefined ? { maxLagHours: sla.warnLagHours } : {}) } } : {}),
  };
}
