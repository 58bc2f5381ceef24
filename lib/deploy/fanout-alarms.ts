import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, Metric, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';

export interface FanoutAlarmsProps {
  /** Alarm names start with this, e.g. `contract-gate-prod`. */
  readonly namePrefix: string;
  readonly action: IAlarmAction;
  readonly stateMachine: StateMachine;
  readonly trigger: Rule;
}

/**
 * A fan-out run that fails leaves its drop in staging, and no queue redelivers it: the validate
 * function handed it off. These alarms are how anyone hears of it.
 */
export class FanoutAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: FanoutAlarmsProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const stuck = 'its drop waits in staging; fix the cause, then redrive the execution (every step is idempotent)';
    this.add('RunsFailed', `${props.namePrefix}-fanout-failed`, `A fan-out run failed after its retries: ${stuck}.`, props.stateMachine.metricFailed({ period, statistic: 'Sum' }));
    this.add('RunsTimedOut', `${props.namePrefix}-fanout-timed-out`, `A fan-out run timed out: ${stuck}.`, props.stateMachine.metricTimedOut({ period, statistic: 'Sum' }));
    this.add('StartsFailed', `${props.namePrefix}-fanout-not-started`, 'EventBridge could not start a fan-out run for a request: its drop waits in staging; delete the run\'s requested.json and redeliver the marker.', new Metric({
      namespace: 'AWS/Events',
      metricName: 'FailedInvocations',
      dimensionsMap: { RuleName: props.trigger.ruleName },
      period,
      statistic: 'Sum',
    }));
    for (const alarm of this.alarms) {
      alarm.addAlarmAction(props.action);
      alarm.addOkAction(props.action);
    }
  }

  private add(id: string, name: string, description: string, metric: IMetric): void {
    this.alarms.push(new Alarm(this, id, {
      alarmName: name,
      alarmDescription: description,
      metric,
      threshold: 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    }));
  }
}
