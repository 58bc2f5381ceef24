import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, MetricFilter, type ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface GateAlarmsProps {
  /** Alarm names start with this, e.g. `contract-gate-prod`. */
  readonly namePrefix: string;
  /** Where alarms and their recoveries go. */
  readonly action: IAlarmAction;
  readonly queue: IQueue;
  readonly deadLetterQueue: IQueue;
  readonly validateFunction: IFunction;
  /** The validate function's log group, for the markers it reports as failed batch items. */
  readonly validateLogGroup: ILogGroup;
  readonly probeFunction: IFunction;
  /** The subscription reconciler, when contracts come from the registry. @default none */
  readonly reconcileFunction?: IFunction;
  /** @default Duration.hours(1) */
  readonly queueAgeThreshold?: Duration;
}

/** The alarms an operator needs: a marker gave up or failed, a handler crashed, the gate falls behind. */
export class GateAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: GateAlarmsProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    this.add('DeadLetters', {
      name: `${props.namePrefix}-dead-letters`,
      description: 'A completion marker failed every delivery and sits in the dead-letter queue; its files are still in staging. Read the validate function\'s errors, fix, then redrive.',
      metric: props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.add('ValidateErrors', {
      name: `${props.namePrefix}-validate-errors`,
      description: 'The validate function crashed or timed out; its batch will be delivered again.',
      metric: props.validateFunction.metricErrors({ period, statistic: 'Sum' }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    // A marker the handler reports as a failed batch item is a successful invocation, invisible
    // to Errors; its error log line is what counts it.
    const failures = new MetricFilter(this, 'MarkerFailureFilter', {
      logGroup: props.validateLogGroup,
      filterPattern: FilterPattern.stringValue('$.level', '=', 'ERROR'),
      metricNamespace: props.namePrefix,
      metricName: 'MarkerFailures',
      metricValue: '1',
    });
    this.add('MarkerFailures', {
      name: `${props.namePrefix}-marker-failures`,
      description: 'The validate function could not finish a marker (logged at ERROR); the marker will be delivered again.',
      metric: failures.metric({ period, statistic: 'Sum' }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    this.add('ProbeErrors', {
      name: `${props.namePrefix}-probe-errors`,
      description: 'The SLA probe failed: missed partitions are not being paged.',
      metric: props.probeFunction.metricErrors({ period, statistic: 'Sum' }),
      threshold: 1,
      comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    });
    if (props.reconcileFunction) {
      this.add('ReconcileErrors', {
        name: `${props.namePrefix}-reconcile-errors`,
        description: 'The subscription reconciler failed: a registered contract\'s owners may not be subscribed yet. It runs again on the next registry write and hourly.',
        metric: props.reconcileFunction.metricErrors({ period, statistic: 'Sum' }),
        threshold: 1,
        comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      });
    }
    const age = props.queueAgeThreshold ?? Duration.hours(1);
    this.add('QueueAge', {
      name: `${props.namePrefix}-ready-queue-age`,
      description: `A completion marker has waited over ${age.toHumanString()} for the gate: validations fail, are throttled by the concurrency limit, or time out.`,
      metric: props.queue.metricApproximateAgeOfOldestMessage({ period, statistic: 'Maximum' }),
      threshold: age.toSeconds(),
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    for (const alarm of this.alarms) {
      alarm.addAlarmAction(props.action);
      alarm.addOkAction(props.action);
    }
  }

  private add(id: string, spec: { name: string; description: string; metric: IMetric; threshold: number; comparison: ComparisonOperator }): void {
    this.alarms.push(
      new Alarm(this, id, {
        alarmName: spec.name,
        alarmDescription: spec.description,
        metric: spec.metric,
        threshold: spec.threshold,
        comparisonOperator: spec.comparison,
        evaluationPeriods: 1,
        // No data means no messages and no invocations: nothing is wrong.
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );
  }
}
