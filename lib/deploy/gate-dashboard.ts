import { Duration } from 'aws-cdk-lib';
import { AlarmBase, AlarmStatusWidget, ConcreteWidget, Dashboard, GraphWidget, type IAlarm, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import { Construct, type IConstruct } from 'constructs';
import { GateMetrics, type GateMetricName } from './gate-metrics.js';

export { METRICS_NAMESPACE, METRICS_SERVICE } from './gate-metrics.js';

export interface GateDashboardProps {
  /** @default a name CloudFormation generates */
  readonly dashboardName?: string;
  /** The gate whose metrics the graphs show: the `Gate` dimension, the GATE_NAME its functions are given. */
  readonly gateName: string;
  /** Alarms to show besides those found under `alarmScope`. @default none */
  readonly alarms?: readonly IAlarm[];
  /**
   * Every CloudWatch alarm under this construct is shown, found when the app is synthesized, so
   * an alarm added anywhere in the gate cannot be left off. @default the dashboard's scope (the gate)
   */
  readonly alarmScope?: IConstruct;
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
    this.dashboard = new Dashboard(this, 'Dashboard', { ...(props.dashboardName ? { dashboardName: props.dashboardName } : {}), defaultInterval: Duration.days(1) });
    this.dashboard.addWidgets(new EveryAlarmWidget(props.alarmScope ?? scope, props.alarms ?? []));
    const graph = grapher(props.gateName);
    this.dashboard.addWidgets(
      graph('Drops published per contract', 'DropsPublished', 'Sum', 6),
      graph('Drops quarantined per contract', 'DropsQuarantined', 'Sum', 6),
      graph('Drops refused unread per contract', 'DropsRefused', 'Sum', 6),
      graph('Drops superseded per contract', 'DropsSuperseded', 'Sum', 6),
    );
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

type Grapher = (title: string, metricName: GateMetricName, statistic: string, width?: number) => GraphWidget;

/** Graphs of one metric for every contract that has published it, of this gate when it is named. */
function grapher(gateName: string): Grapher {
  const metrics = new GateMetrics(gateName);
  return (title, metricName, statistic, width = 8) => new GraphWidget({ title, left: [metrics.searchPerContract(metricName, statistic)], width, height: 6 });
}

/**
 * The state of every alarm under a construct, collected when the dashboard body is rendered (at
 * synthesis), not when the dashboard is made: alarms made after it are shown too.
 */
class EveryAlarmWidget extends ConcreteWidget {
  constructor(private readonly scope: IConstruct, private readonly extra: readonly IAlarm[]) {
    super(24, 4);
  }

  override position(x: number, y: number): void {
    this.x = x;
    this.y = y;
  }

  toJson(): unknown[] {
    const found = this.scope.node.findAll().filter((c): c is AlarmBase => c instanceof AlarmBase);
    const alarms = [...new Set<IAlarm>([...found, ...this.extra])];
    const widget: IWidget = new AlarmStatusWidget({ title: 'Alarms', alarms, width: this.width, height: this.height });
    widget.position(this.x ?? 0, this.y ?? 0);
    return widget.toJson();
  }
}
