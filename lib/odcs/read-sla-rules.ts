import type { Node } from 'yaml';
import { SLA_SEVERITY_RULES, type Severity, type SeverityMap, type Sla, type SlaSeverityRule, type VolumeVsHistory } from '../contract/model.js';
import { readSeverity, undeclaredSlaRules, withoutUndeclared, type SeverityRead } from '../contract/read-severity.js';
import { readVolumeVsHistory } from '../contract/read-sla-volume.js';
import type { YamlReader } from '../contract/yaml-reader.js';

/** The rules of `contractGate.sla` that ODCS has no words for, beside the calendar. */
export interface SlaRules {
  readonly warnLagHours?: number;
  readonly volumeVsHistory?: VolumeVsHistory;
  readonly severity?: SeverityRead<SlaSeverityRule> & { readonly node: Node | null; readonly path: string };
}

export type SlaRuleReader = <T>(key: string, read: (n: Node | null, p: string) => T | undefined) => T | undefined;

export function readSlaRules(reader: YamlReader, get: SlaRuleReader): SlaRules {
  const warnLagHours = get('warnLagHours', (n, p) => reader.number(n, p, { min: 0 }));
  const volumeVsHistory = get('volumeVsHistory', (n, p) => readVolumeVsHistory(reader, n, { path: p, lookback: 'lookback', minRatio: 'minRatio', maxRatio: 'maxRatio' }));
  const severity = get('severity', (n, p) => ({ ...readSeverity(reader, n, p, SLA_SEVERITY_RULES), node: n, path: p }));
  return { ...(warnLagHours === undefined ? {} : { warnLagHours }), ...(volumeVsHistory ? { volumeVsHistory } : {}), ...(severity ? { severity } : {}) };
}

/**
 * The SLA's severities: `contractGate.sla.severity` for the rules it names, the rowCount rules'
 * own `severity` for min_rows and max_rows otherwise; a severity of a rule the SLA lacks is a
 * warning, as in a native contract.
 */
export function slaSeverity(reader: YamlReader, rules: SlaRules, fromRowCount: { readonly [rule in SlaSeverityRule]?: Severity } | undefined, sla: Parameters<typeof undeclaredSlaRules>[0]): SeverityMap<SlaSeverityRule> | undefined {
  const read = rules.severity;
  const map: Partial<Record<SlaSeverityRule, Severity>> = { ...fromRowCount };
  for (const rule of read?.named.keys() ?? []) delete map[rule];
  Object.assign(map, read?.map);
  return withoutUndeclared(reader, read?.path ?? '', { map, named: read?.named ?? new Map() }, undeclaredSlaRules(sla), 'the sla');
}

/** Both lags are measured from the freshness column's newest value; the warning must come before the failure. */
export function checkWarnLag(reader: YamlReader, sla: Pick<Sla, 'warnLagHours' | 'maxLagHours' | 'freshnessColumn'>, path: string, node: Node | null): void {
  const { warnLagHours, maxLagHours } = sla;
  if (warnLagHours === undefined) return;
  if (sla.freshnessColumn === undefined) {
    reader.report('freshness_column_missing', path, node, 'warnLagHours needs a freshness column: a latency SLA property with an element, or contractGate.sla.freshnessColumn');
  } else if (maxLagHours !== undefined && warnLagHours >= maxLagHours) {
    reader.report('warn_not_below_max', path, node, `warnLagHours (${warnLagHours}) must be below the latency (${maxLagHours} hours): a lag past the latency already fails the drop, so the warning would never come first`);
  }
}

