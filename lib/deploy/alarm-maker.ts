import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData, type IAlarmAction, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

export interface AlarmSpec {
  /** After the prefix, when there is one: `<namePrefix>-<name>`. */
  readonly name: string;
  readonly description: string;
  readonly metric: IMetric;
  readonly threshold: number;
  readonly comparison: ComparisonOperator;
}

/**
 * The gate's alarms, made alike: one period to alarm, no data is no trouble, every state change
 * to the actions, and a physical name only when a prefix asks for one (two gates in one account
 * would otherwise collide on it).
 */
export class AlarmMaker {
  constructor(private readonly scope: Construct, private readonly options: { readonly namePrefix?: string | undefined; readonly actions?: readonly IAlarmAction[] | undefined }) {}

  make(id: string, spec: AlarmSpec): Alarm {
    const { namePrefix, actions = [] } = this.options;
    const alarm = new Alarm(this.scope, id, {
      ...(namePrefix === undefined ? {} : { alarmName: `${namePrefix}-${spec.name}` }),
      alarmDescription: spec.description,
      metric: spec.metric,
      threshold: spec.threshold,
      comparisonOperator: spec.comparison,
      evaluationPeriods: 1,
      // No data means no messages and no invocations: nothing is wrong.
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    alarm.addAlarmAction(...actions);
    alarm.addOkAction(...actions);
    return alarm;
  }

  /** Alarms on any occurrence in a period. */
  atLeastOne(id: string, name: string, description: string, metric: IMetric): Alarm {
    return this.make(id, { name, description, metric, threshold: 1, comparison: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD });
  }

  /** Alarms while a dead-letter queue holds a message. */
  deadLetters(id: string, name: string, queue: IQueue, description: string): Alarm {
    return this.atLeastOne(id, name, description, queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }));
  }
}
