import { Duration } from 'aws-cdk-lib';
import { AlarmStatusWidget, Dashboard, GraphWidget, MathExpression, type Alarm, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct } from 'constructs';

/** The namespace and service the handlers' Powertools Metrics publish under (EMF). */
export const METRICS_NAMESPACE = 'ContractGate';
export const METRICS_SERVICE = 'contract-gate';

export interface GateDashboardProps {
  readonly dashboardName: string;
  readonly alarms: readonly Alarm[];
}

/**
 * One page per gate: what happened to the drops of every contract, how much was read and how
 * long it took, the probe's misses, and every alarm's state. Contracts come and go with the
 * registry, so each graph is a SEARCH over the `contract` dimension, not a fixed list.
 */
export class GateDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: GateDashboardProps) {
    super(scope, id);
    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: props.dashboardName, defaultInterval: Duration.days(1) });
    this.dashboard.addWidgets(new AlarmStatusWidget({ title: 'Alarms', alarms: [...props.alarms], width: 24 }));
    this.dashboard.addWidgets(...outcomeWidgets());
    this.dashboard.addWidgets(
      graph('Rows checked per contract', 'RowsChecked', 'Sum'),
      graph('Bytes read per contract', 'BytesRead', 'Sum'),
      graph('SLA probe misses per contract', 'ProbeMisses', 'Sum'),
    );
    this.dashboard.addWidgets(
      graph('Validation seconds per drop (p90)', 'ValidationSeconds', 'p90'),
      graph('Marker to verdict, seconds (p90)', 'MarkerToVerdictSeconds', 'p90'),
      graph('Marker to verdict, seconds (max)', 'MarkerToVerdictSeconds', 'Maximum'),
    );
  }
}

function outcomeWidgets(): IWidget[] {
  return [
    graph('Drops published per contract', 'DropsPublished', 'Sum', 6),
    graph('Drops quarantined per contract', 'DropsQuarantined', 'Sum', 6),
    graph('Drops refused unread per contract', 'DropsRefused', 'Sum', 6),
    graph('Drops superseded per contract', 'DropsSuperseded', 'Sum', 6),
  ];
}

/** A graph of one metric for every contract that has published it. */
function graph(title: string, metricName: string, statistic: string, width = 8): GraphWidget {
  const search = new MathExpression({
    expression: `SEARCH('{${METRICS_NAMESPACE},contract,service} MetricName="${metricName}"', '${statistic}', 300)`,
    usingMetrics: {},
    label: '',
    period: Duration.minutes(5),
  });
  return new GraphWidget({ title, left: [search], width, height: 6 });
}
