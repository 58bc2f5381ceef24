import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { DefinitionBody, Pass, StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { describe, expect, it } from 'vitest';
import { FanoutAlarms } from '../../lib/deploy/fanout-alarms.js';
import { GateAlarms, type GateAlarmsProps } from '../../lib/deploy/gate-alarms.js';

/** GateAlarms and FanoutAlarms over stand-ins for the gate's parts, in a stack of their own. */
function alarmsStack(options: Pick<GateAlarmsProps, 'namePrefix' | 'gateName'> = { gateName: 'lake' }) {
  const stack = new Stack(new App(), 'Alarms');
  const queue = (id: string) => new Queue(stack, id);
  const fn = (name: string) => LambdaFunction.fromFunctionName(stack, name, name);
  const actions = [new SnsAction(new Topic(stack, 'Oncall')), new SnsAction(new Topic(stack, 'Company'))];
  const gate = new GateAlarms(stack, 'GateAlarms', {
    ...options, actions,
    queue: queue('Ready'), deadLetterQueue: queue('ReadyDlq'),
    validateFunction: fn('validate'), validateLogGroup: new LogGroup(stack, 'ValidateLogs'),
    probeFunction: fn('probe'), probeDeadLetterQueue: queue('ProbeDlq'),
    reconcileFunction: fn('reconcile'), reconcileDeadLetterQueue: queue('ReconcileDlq'),
  });
  const stateMachine = new StateMachine(stack, 'StateMachine', { definitionBody: DefinitionBody.fromChainable(new Pass(stack, 'Pass')) });
  const trigger = new Rule(stack, 'Trigger', { schedule: Schedule.expression('rate(1 hour)') });
  const fanout = new FanoutAlarms(stack, 'FanoutAlarms', { ...(options.namePrefix ? { namePrefix: options.namePrefix } : {}), actions, stateMachine, trigger, triggerDeadLetterQueue: queue('TriggerDlq') });
  return { stack, gate, fanout, template: Template.fromStack(stack) };
}

const alarmsOf = (template: Template) => Object.values(template.findResources('AWS::CloudWatch::Alarm')).map((a) => a.Properties as Record<string, unknown>);

describe('GateAlarms and FanoutAlarms without a namePrefix', () => {
  const { stack, gate, fanout, template } = alarmsStack({ gateName: 'lake-prod' });

  it('give no alarm a physical name, so two gates in one account cannot collide', () => {
    const alarms = alarmsOf(template);
    expect(alarms).toHaveLength(12);
    for (const alarm of alarms) expect(alarm.AlarmName).toBeUndefined();
  });

  it('send every alarm and recovery to every action given', () => {
    const topics = ['Oncall', 'Company'].map((id) => ({ Ref: stack.getLogicalId(stack.node.findChild(id).node.defaultChild as never) }));
    for (const alarm of alarmsOf(template)) expect(alarm).toMatchObject({ AlarmActions: topics, OKActions: topics });
  });

  it('expose each alarm by name', () => {
    expect(gate.alarms).toEqual([gate.deadLetters, gate.validateErrors, gate.markerFailures, gate.probeErrors, gate.probeDeadLetters, gate.reconcileErrors, gate.reconcileDeadLetters, gate.queueAge]);
    expect(fanout.alarms).toEqual([fanout.runsFailed, fanout.runsTimedOut, fanout.startsFailed, fanout.triggerDeadLetters]);
    for (const alarm of [...gate.alarms, ...fanout.alarms]) expect(alarm).toBeDefined();
  });

  it('alarm on any message in each dead-letter queue: the ready queue\'s, the probe\'s, the reconciler\'s and the fan-out trigger\'s', () => {
    const watched = alarmsOf(template).filter((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible').map((a) => (a.Dimensions as { Value: { 'Fn::GetAtt': [string] } }[])[0]!.Value['Fn::GetAtt'][0]);
    expect(watched.map((id) => id.replace(/[0-9A-F]{8}$/, '')).sort()).toEqual(['ProbeDlq', 'ReadyDlq', 'ReconcileDlq', 'TriggerDlq']);
  });

  it('count marker failures by the gate the validate function\'s log lines name, in the handlers\' namespace', () => {
    template.hasResourceProperties('AWS::Logs::MetricFilter', {
      MetricTransformations: [{ MetricNamespace: 'ContractGate', MetricName: 'MarkerFailures', MetricValue: '1', Dimensions: Match.arrayEquals([{ Key: 'service', Value: '$.service' }, { Key: 'Gate', Value: '$.gate' }]) }],
    });
    const alarm = alarmsOf(template).find((a) => a.MetricName === 'MarkerFailures');
    expect(alarm).toMatchObject({ Namespace: 'ContractGate', Statistic: 'Sum' });
    expect(alarm!.Dimensions).toEqual(expect.arrayContaining([{ Name: 'Gate', Value: 'lake-prod' }, { Name: 'service', Value: 'contract-gate' }]));
    expect(alarm!.Dimensions).toHaveLength(2);
  });
});

describe('GateAlarms and FanoutAlarms with a namePrefix', () => {
  it('name every alarm after it', () => {
    const alarms = alarmsOf(alarmsStack({ namePrefix: 'acme-gate', gateName: 'lake-prod' }).template);
    expect(alarms.map((a) => a.AlarmName).sort()).toEqual([
      'dead-letters', 'fanout-failed', 'fanout-not-started', 'fanout-requests-dead-letters', 'fanout-timed-out', 'marker-failures',
      'probe-dead-letters', 'probe-errors', 'ready-queue-age', 'reconcile-dead-letters', 'reconcile-errors', 'validate-errors',
    ].map((name) => `acme-gate-${name}`));
  });
});
