import { COLUMN_SEVERITY_RULES, SLA_SEVERITY_RULES, type ColumnSpec, type Contract, type Severity, type Sla, type SlaSeverityRule } from '../contract/model.js';
import { change, loosenedClass, type CompatMode, type RawChange } from './contract-diff.js';
import { columnSeverity, declares } from './rule-weight.js';

/**
 * A rule declared in both versions whose severity changed. warn → error stops data the old
 * version published with a warning: breaking in every mode, as any tightening. error → warn
 * publishes, with a warning, data the old version stopped: a loosening, classed like the others
 * (breaking only where old readers are promised new data, forward and full). A rule that comes or
 * goes is the rule change's to report, at the severity it has where it is declared.
 */
export function severityChange(column: string | null, rule: string, from: Severity, to: Severity, mode: CompatMode): RawChange[] {
  if (from === to) return [];
  const text = `${rule} severity ${from} → ${to}`;
  if (to === 'error') return [change('severity_tightened', column, 'breaking', `${text}: data it published with a warning is now stopped`)];
  const why = loosenedClass(mode) === 'breaking' ? `readers of the old version, which stopped it, may now get it (compat.mode ${mode})` : 'old data stays valid';
  return [change('severity_loosened', column, loosenedClass(mode), `${text}: data it stopped is now published with a warning; ${why}`)];
}

/** Every rule of a kept column whose severity changed. */
export function columnSeverityChanges(old: ColumnSpec, next: ColumnSpec, contracts: { old: Contract; next: Contract }, mode: CompatMode): RawChange[] {
  const inGrain = (contract: Contract) => contract.schema.grain.includes(next.name);
  return COLUMN_SEVERITY_RULES.flatMap((rule) => {
    if (!declares(old, rule, inGrain(contracts.old)) || !declares(next, rule, inGrain(contracts.next))) return [];
    return severityChange(next.name, `"${next.name}" ${rule}`, columnSeverity(old, rule), columnSeverity(next, rule), mode);
  });
}

/** The grain's uniqueness check, when both versions have a grain. */
export function grainSeverityChange(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  if (old.schema.grain.length === 0 || next.schema.grain.length === 0) return [];
  return severityChange(null, 'schema grain', old.schema.severity?.grain ?? 'error', next.schema.severity?.grain ?? 'error', mode);
}

export function declaresSlaRule(sla: Sla, rule: SlaSeverityRule): boolean {
  switch (rule) {
    case 'min_rows': return sla.minRows !== undefined;
    case 'max_rows': return sla.maxRows !== undefined;
    case 'volume_vs_history': return sla.volumeVsHistory !== undefined;
    // Only max_lag_hours can stop a partition; warn_lag_hours warns whatever the severity.
    case 'freshness': return sla.maxLagHours !== undefined;
  }
}

export function slaSeverity(sla: Sla | undefined, rule: SlaSeverityRule): Severity | undefined {
  return sla && declaresSlaRule(sla, rule) ? (sla.severity?.[rule] ?? 'error') : undefined;
}

export function slaSeverityChanges(old: Sla | undefined, next: Sla | undefined, mode: CompatMode): RawChange[] {
  return SLA_SEVERITY_RULES.flatMap((rule) => {
    const [from, to] = [slaSeverity(old, rule), slaSeverity(next, rule)];
    return from && to ? severityChange(null, `sla ${rule}`, from, to, mode) : [];
  });
}
