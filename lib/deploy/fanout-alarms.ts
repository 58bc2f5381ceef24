import { Duration } from 'aws-cdk-lib';
import { Metric, type Alarm, type IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { Rule } from 'aws-cdk-lib/aws-events';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { AlarmMaker } from './alarm-maker.js';

export interface FanoutAlarmsProps {
  /** Alarm names start with this, e.g. `contract-gate-prod`. @default names CloudFormation generates */
  readonly namePrefix?: string;
  /** Where alarms and their recoveries go. @default nowhere */
  readonly actions?: readonly IAlarmAction[];
  readonly stateMachine: StateMachine;
  readonly trigger: Rule;
  /** The trigger's dead-letter queue: requests EventBridge gave up starting a run for. */
  readonly triggerDeadLetterQueue: IQueue;
}

/**
 * A fan-out run that fails leaves its drop in staging, and no queue redelivers it: the validate
 * function handed it off. These alarms are how anyone hears of it.
 */
export class FanoutAlarms extends Construct {
  readonly runsFailed: Alarm;
  readonly runsTimedOut: Alarm;
  readonly startsFailed: Alarm;
  readonly triggerDeadLetters: Alarm;

  constructor(scope: Construct, id: string, props: FanoutAlarmsProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const make = new AlarmMaker(this, props);
    const stuck = 'its drop waits in staging; fix the cause, then redrive the execution (every step is idempotent)';
    this.runsFailed = make.atLeastOne('RunsFailed', 'fanout-failed', `A fan-out run failed after its retries: ${stuck}.`, props.stateMachine.metricFailed({ period, statistic: 'Sum' }));
    this.runsTimedOut = make.atLeastOne('RunsTimedOut', 'fanout-timed-out', `A fan-out run timed out: ${stuck}.`, props.stateMachine.metricTimedOut({ period, statistic: 'Sum' }));
    this.startsFailed = make.atLeastOne('StartsFailed', 'fanout-not-started', 'EventBridge could not start a fan-out run for a request: its drop waits in staging; delete the run\'s requested.json and redeliver the marker.', new Metric({
      namespace: 'AWS/Events',
      metricName: 'FailedInvocations',
      dimensionsMap: { RuleName: props.trigger.ruleName },
      period,
      statistic: 'Sum',
    }));
    this.triggerDeadLetters = make.deadLetters('TriggerDeadLetters', 'fanout-requests-dead-letters', props.triggerDeadLetterQueue, 'A fan-out request EventBridge gave up starting a run for sits in the trigger\'s dead-letter queue (its event names requested.json): its drop waits in staging. Fix the cause, delete the run\'s requested.json and redeliver the marker.');
  }

  /** Every alarm of the fan-out. */
  get alarms(): readonly Alarm[] {
    return [this.runsFailed, this.runsTimedOut, this.startsFailed, this.triggerDeadLetters];
  }
}
