import { Duration, Token } from 'aws-cdk-lib';
import { MathExpression, Metric, type MetricOptions } from 'aws-cdk-lib/aws-cloudwatch';
import { CONTRACT_DIMENSION, GATE_DIMENSION, SERVICE_DIMENSION, type OutcomeMetricName } from '../gate/outcome-metrics.js';

/** The namespace and service the handlers' Powertools Metrics publish under (EMF). */
export const METRICS_NAMESPACE = 'ContractGate';
export const METRICS_SERVICE = 'contract-gate';

/** The metrics the gate's functions publish besides the outcomes of drops. */
export type GateMetricName =
  | OutcomeMetricName
  | 'ProbeChecked'
  | 'ProbeMisses'
  | 'SubscriptionChanges'
  | 'SubscriptionFailures'
  | 'MarkerFailures';

export interface GateMetricOptions extends Omit<MetricOptions, 'dimensionsMap'> {
  /** One contract's figure (the `contract` dimension); a drop's metrics only. @default the whole gate */
  readonly contract?: string;
}

/**
 * The CloudWatch metrics of one gate: what its functions publish (lambdas/observability.ts) under
 * the dimension `Gate` = the gate's name, which the deployment passes them as GATE_NAME. Counts
 * default to their Sum over five minutes, durations to their p90.
 */
export class GateMetrics {
  constructor(readonly gateName: string) {}

  /**
   * A metric of the gate by name (`DropsPublished`, `RowsChecked`, `ProbeMisses`, ...); a
   * `*Seconds` duration defaults to its p90, a count to its Sum.
   */
  metric(metricName: GateMetricName, options: GateMetricOptions = {}): Metric {
    const { contract, ...rest } = options;
    return new Metric({
      namespace: METRICS_NAMESPACE,
      metricName,
      dimensionsMap: { [SERVICE_DIMENSION]: METRICS_SERVICE, [GATE_DIMENSION]: this.gateName, ...(contract === undefined ? {} : { [CONTRACT_DIMENSION]: contract }) },
      statistic: metricName.endsWith('Seconds') ? 'p90' : 'Sum',
      ...rest,
    });
  }

  /**
   * One line per contract that has published the metric, found by a SEARCH: contracts come and
   * go with the registry, so a dashboard cannot list them.
   */
  searchPerContract(metricName: GateMetricName, statistic: string, period = Duration.minutes(5)): MathExpression {
    const schema = `{${METRICS_NAMESPACE},${CONTRACT_DIMENSION},${GATE_DIMENSION},${SERVICE_DIMENSION}}`;
    return new MathExpression({
      expression: `SEARCH('${schema} ${GATE_DIMENSION}="${searchValue(this.gateName)}" MetricName="${metricName}"', '${statistic}', ${period.toSeconds()})`,
      usingMetrics: {},
      label: '',
      period,
    });
  }
}

/** A value inside a SEARCH's double quotes, itself inside single quotes. */
function searchValue(value: string): string {
  if (Token.isUnresolved(value)) return value;
  return value.replace(/[\\"']/g, (c) => `\\${c}`);
}
