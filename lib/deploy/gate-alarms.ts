import { Duration } from 'aws-cdk-lib';
import { ComparisonOperator, type Alarm, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { GATE_DIMENSION, GATE_LOG_KEY, SERVICE_DIMENSION } from '../gate/outcome-metrics.js';
import { AlarmMaker } from './alarm-maker.js';
import { GateMetrics, METRICS_NAMESPACE } from './gate-metrics.js';

export interface GateAlarmsProps {
  /** Alarm names start with this, e.g. `contract-gate-prod`. @default names CloudFormation generates */
  readonly namePrefix?: string;
  /** Where alarms and their recoveries go: an `SnsAction`, a company's own actions. @default nowhere */
  readonly actions?: readonly IAlarmAction[];
  /** The gate's name (its functions' GATE_NAME): marker failures are counted with this `Gate` dimension. */
  readonly gateName: string;
  readonly queue: IQueue;
  readonly deadLetterQueue: IQueue;
  readonly validateFunction: IFunction;
  /** The validate function's log group, for the markers it reports as failed batch items. */
  readonly validateLogGroup: ILogGroup;
  readonly probeFunction: IFunction;
  /** The probe schedule's dead-letter queue (ProbeFunction.deadLetterQueue). @default no alarm on it */
  readonly probeDeadLetterQueue?: IQueue;
  /** The subscription reconciler, when contracts come from the registry. @default none */
  readonly reconcileFunction?: IFunction;
  /** The reconciler's dead-letter queue (ReconcileFunction.deadLetterQueue). @default no alarm on it */
  readonly reconcileDeadLetterQueue?: IQueue;
  /** @default Duration.hours(1) */
  readonly queueAgeThreshold?: Duration;
}

/** The alarms an operator needs: a marker gave up or failed, a handler crashed, the gate falls behind. */
export class GateAlarms extends Construct {
  readonly deadLetters: Alarm;
  readonly validateErrors: Alarm;
  readonly markerFailures: Alarm;
  readonly probeErrors: Alarm;
  readonly queueAge: Alarm;
  /** Present with `probeDeadLetterQueue`. */
  readonly probeDeadLetters?: Alarm;
  /** Present with `reconcileFunction`. */
  readonly reconcileErrors?: Alarm;
  /** Present with `reconcileDeadLetterQueue`. */
  readonly reconcileDeadLetters?: Alarm;

  constructor(scope: Construct, id: string, props: GateAlarmsProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const make = new AlarmMaker(this, { namePrefix: props.namePrefix, actions: props.actions ?? [] });
    this.deadLetters = make.deadLetters('DeadLetters', 'dead-letters', props.deadLetterQueue, 'A completion marker failed every delivery and sits in the dead-letter queue; its files are still in staging. Read the validate function\'s errors, fix, then redrive.');
    this.validateErrors = make.atLeastOne('ValidateErrors', 'validate-errors', 'The validate function crashed or timed out; its batch will be delivered again.', props.validateFunction.metricErrors({ period, statistic: 'Sum' }));
    this.markerFailures = make.atLeastOne('MarkerFailures', 'marker-failures', 'The validate function could not finish a marker (logged at ERROR); the marker will be delivered again.', this.markerFailureMetric(props, period));
    this.probeErrors = make.atLeastOne('ProbeErrors', 'probe-errors', 'The SLA probe failed: missed partitions are not being paged.', props.probeFunction.metricErrors({ period, statistic: 'Sum' }));
    if (props.probeDeadLetterQueue) {
      this.probeDeadLetters = make.deadLetters('ProbeDeadLetters', 'probe-dead-letters', props.probeDeadLetterQueue, 'EventBridge could not start SLA probe runs (throttled or refused): missed partitions are not being paged. Its dead-letter queue holds the schedule events; they need no redrive once the probe runs again.');
    }
    if (props.reconcileFunction) {
      this.reconcileErrors = make.atLeastOne('ReconcileErrors', 'reconcile-errors', 'The subscription reconciler failed: a registered contract\'s owners may not be subscribed yet. It runs again on the next registry write and hourly.', props.reconcileFunction.metricErrors({ period, statistic: 'Sum' }));
    }
    if (props.reconcileDeadLetterQueue) {
      this.reconcileDeadLetters = make.deadLetters('ReconcileDeadLetters', 'reconcile-dead-letters', props.reconcileDeadLetterQueue, 'A registry notification or schedule event failed every try of the subscription reconciler and sits in its dead-letter queue: owners may not be subscribed. It runs again hourly; read its errors.');
    }
    const age = props.queueAgeThreshold ?? Duration.hours(1);
    this.queueAge = make.make('QueueAge', {
      name: 'ready-queue-age',
      description: `A completion marker has waited over ${age.toHumanString()} for the gate: validations fail, are throttled by the concurrency limit, or time out.`,
      metric: props.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
      threshold: age.toSeconds(),
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
  }

  /** Every alarm of the gate's core (the fan-out has its own: FanoutAlarms). */
  get alarms(): readonly Alarm[] {
    const optional = [this.probeDeadLetters, this.reconcileErrors, this.reconcileDeadLetters].filter((a): a is Alarm => a !== undefined);
    return [this.deadLetters, this.validateErrors, this.markerFailures, this.probeErrors, ...optional, this.queueAge];
  }

  /**
   * A marker the handler reports as a failed batch item is a successful invocation, invisible to
   * Errors; its error log line is what counts it, under the gate and service the line names.
   */
  private markerFailureMetric(props: GateAlarmsProps, period: Duration): IMetric {
    new MetricFilter(this, 'MarkerFailureFilter', {
      logGroup: props.validateLogGroup,
      filterPattern: FilterPattern.stringValue('$.level', '=', 'ERROR'),
      metricNamespace: METRICS_NAMESPACE,
      metricName: 'MarkerFailures',
      metricValue: '1',
      dimensions: { [SERVICE_DIMENSION]: `$.${SERVICE_DIMENSION}`, [GATE_DIMENSION]: `$.${GATE_LOG_KEY}` },
    });
    return new GateMetrics(props.gateName).metric('MarkerFailures', { period });
  }
}
