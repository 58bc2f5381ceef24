import type { RuleId } from '../report/report.js';
import type { Decision } from './decision.js';

/**
 * Which metrics a drop's verdict yields: the pure half of the gate's outcome metrics. The Lambda
 * adapters (lambdas/observability*.ts) publish them as CloudWatch EMF; the names and units here
 * are what the dashboard and the alarms are built on, so they are part of the deployed interface.
 */
export type OutcomeMetricName =
  | 'DropsPublished'
  | 'DropsQuarantined'
  | 'DropsRefused'
  | 'DropsSuperseded'
  | 'RowsChecked'
  | 'RowsWithheld'
  | 'DropsPublishedWithWarnings'
  | 'BytesRead'
  | 'ValidationSeconds'
  | 'MarkerToVerdictSeconds';

/**
 * The dimensions the handlers publish under: `service`, `Gate` (which gate of the account, from
 * GATE_NAME) and, for a drop's metrics, `contract`; each drop's metrics also go out without
 * `contract`, as the gate-wide figure an alarm can watch.
 */
export const SERVICE_DIMENSION = 'service';
export const GATE_DIMENSION = 'Gate';
export const CONTRACT_DIMENSION = 'contract';
/** The key naming the gate on every log line (a metric filter reads its dimension from it). */
export const GATE_LOG_KEY = 'gate';

export type OutcomeMetricUnit = 'Count' | 'Bytes' | 'Seconds';

export interface OutcomeMetric {
  readonly name: OutcomeMetricName;
  readonly unit: OutcomeMetricUnit;
  readonly value: number;
}

/** The metrics of one drop, all under one `contract` dimension. */
export interface ContractMetrics {
  /** The dataset name as a CloudWatch dimension value (see contractDimension). */
  readonly contract: string;
  readonly metrics: readonly OutcomeMetric[];
}

/** What the adapter saw this invocation do with a decision; the decision itself cannot say. */
export interface Observed {
  /**
   * This invocation carried the decision out (sent its one notice). A delivery that found the
   * decision carried out already returns the same decision: counting it again would count the
   * drop twice, so only the invocation that carried it out counts it.
   */
  readonly carriedOutHere: boolean;
  /** Wall time of the checks this invocation ran for the drop; absent when it ran none. */
  readonly validationSeconds?: number;
}

/**
 * Rules that refuse a drop before any of its data is read (RULE_ORDER lists them first): the
 * same set `contract-gate drop` reports as the verdict `refused`.
 */
export const REFUSAL_RULES: ReadonlySet<RuleId> = new Set<RuleId>(['no_contract', 'retired', 'bad_partition', 'manifest']);

/** A quarantine the gate decided without reading the data: no contract, retired, a bad path or manifest. */
export function isRefused(decision: Decision): boolean {
  return decision.outcome === 'quarantine' && decision.report.violations.some((v) => REFUSAL_RULES.has(v.rule));
}

/**
 * The metrics of a handler's result for one drop (a MarkerResult, or the fan-out's decide
 * outcome): none for a result without a decision, for a decision carried out before this
 * invocation, and for a duplicate marker (nothing moved, nobody told).
 */
export function resultMetrics(result: { readonly decision: Decision } | { readonly reason: string }, observe: (decision: Decision) => Observed): ContractMetrics | undefined {
  if (!('decision' in result)) return undefined;
  const observed = observe(result.decision);
  return observed.carriedOutHere ? decisionMetrics(result.decision, observed.validationSeconds) : undefined;
}

/**
 * A refused drop counts as quarantined too (its files are in quarantine/); DropsRefused says how
 * many of the quarantined were never read. Rows and bytes only where the data was read
 * (the report's `stats`).
 */
export function decisionMetrics(decision: Decision, validationSeconds?: number): ContractMetrics | undefined {
  if (decision.outcome === 'duplicate') return undefined;
  const metrics: OutcomeMetric[] = [count(OUTCOME_METRIC[decision.outcome])];
  if (isRefused(decision)) metrics.push(count('DropsRefused'));
  const { stats } = decision.report;
  if (decision.outcome === 'publish' && decision.report.status === 'warn') metrics.push(count('DropsPublishedWithWarnings'));
  if (decision.withheld) metrics.push({ name: 'RowsWithheld', unit: 'Count', value: decision.withheld.rows });
  if (stats) metrics.push({ name: 'RowsChecked', unit: 'Count', value: decision.report.rows }, { name: 'BytesRead', unit: 'Bytes', value: stats.bytes_read });
  if (validationSeconds !== undefined) metrics.push({ name: 'ValidationSeconds', unit: 'Seconds', value: validationSeconds });
  const waited = markerToVerdictSeconds(decision);
  if (waited !== undefined) metrics.push({ name: 'MarkerToVerdictSeconds', unit: 'Seconds', value: waited });
  return { contract: contractDimension(decision.address.dataset), metrics };
}

const OUTCOME_METRIC = { publish: 'DropsPublished', quarantine: 'DropsQuarantined', superseded: 'DropsSuperseded' } as const;

function count(name: OutcomeMetricName): OutcomeMetric {
  return { name, unit: 'Count', value: 1 };
}

/**
 * From the marker's LastModified to `decided_at`. decided_at is stamped (to the second) when the
 * decision began, so this is how long a marker waited for the gate, not counting validation;
 * the truncation to seconds can put it a fraction before the marker's time, hence the floor at 0.
 */
/** From the marker to the end of the carry-out (files moved, owner told), when consumers have the verdict. */
function markerToVerdictSeconds(decision: Decision): number | undefined {
  const marker = Date.parse(decision.report.source?.marker?.last_modified ?? '');
  const decided = Date.parse(decision.completed_at ?? decision.decided_at);
  if (!Number.isFinite(marker) || !Number.isFinite(decided)) return undefined;
  return Math.max(0, (decided - marker) / 1000);
}

const MAX_DIMENSION_CHARS = 250;

/**
 * CloudWatch takes ASCII dimension values only, and a drop for a dataset with no contract may be
 * named anything (`çhäos`, control characters): those are percent-escaped, so every drop is
 * counted under a value that names it, and cut at 250 characters.
 */
export function contractDimension(dataset: string): string {
  const escaped = [...dataset].map((c) => (/^[\x21-\x7e]$/.test(c) && c !== '%' ? c : escape(c))).join('');
  return escaped.slice(0, MAX_DIMENSION_CHARS) || '%00';
}

/** UTF-8 percent-escapes; a lone surrogate (not encodable) becomes U+FFFD's. */
function escape(c: string): string {
  try {
    return encodeURIComponent(c);
  } catch {
    return '%EF%BF%BD';
  }
}
