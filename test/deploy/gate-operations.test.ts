import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmsOffEveryDashboard, eventDeadLetterQueues, propertiesOf, queuePolicyStatements, ruleTargets } from './operations-invariants.js';
import { synthGate, type GateSynth } from './synth-gate.js';

// The registry environment has every EventBridge rule the gate makes: probe, reconcile, fan-out.
let gate: GateSynth;
beforeAll(async () => {
  gate = await synthGate('reg');
});
afterAll(() => gate.dispose());

describe('EventBridge targets', () => {
  it('each have a dead-letter queue and a retry policy', () => {
    const targets = ruleTargets(gate.template);
    expect(targets).toHaveLength(3);
    for (const { name, target } of targets) {
      expect(target.DeadLetterConfig, name).toEqual({ Arn: { 'Fn::GetAtt': [expect.any(String), 'Arn'] } });
      expect(target.RetryPolicy, name).toEqual({ MaximumRetryAttempts: expect.any(Number), MaximumEventAgeInSeconds: expect.any(Number) });
    }
  });

  it('retry the probe for one interval, the reconciler six hours, and a fan-out request as long as EventBridge allows', () => {
    const retry = (rule: { node: { defaultChild?: unknown } }) => ruleTargets(gate.template).find((t) => t.name.startsWith(gate.logicalId(rule)))!.target.RetryPolicy;
    expect(retry(gate.stack.gate.probe.schedule)).toEqual({ MaximumRetryAttempts: 3, MaximumEventAgeInSeconds: 300 });
    expect(retry(gate.stack.gate.reconcile!.schedule)).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 6 * 3600 });
    expect(retry(gate.stack.gate.fanout!.trigger)).toEqual({ MaximumRetryAttempts: 185, MaximumEventAgeInSeconds: 24 * 3600 });
  });

  it('dead-letter into encrypted, TLS-only queues kept 14 days, which only their own rule may send to', () => {
    for (const { name, target } of ruleTargets(gate.template)) {
      const queue = ((target.DeadLetterConfig as { Arn: { 'Fn::GetAtt': [string] } }).Arn)['Fn::GetAtt'][0];
      expect(propertiesOf(gate.template, queue), name).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 86400 });
      const statements = queuePolicyStatements(gate.template, queue);
      expect(statements, name).toContainEqual(expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }));
      const rule = name.split('/')[0]!;
      expect(statements, name).toContainEqual(expect.objectContaining({ Effect: 'Allow', Action: 'sqs:SendMessage', Principal: { Service: 'events.amazonaws.com' }, Condition: { ArnEquals: { 'aws:SourceArn': { 'Fn::GetAtt': [rule, 'Arn'] } } } }));
    }
  });
});

describe('the reconcile function, invoked by S3 notifications (asynchronously)', () => {
  it('is retried twice within six hours, then sends the event to its dead-letter queue', () => {
    const queue = gate.logicalId(gate.stack.gate.reconcile!.deadLetterQueue.queue);
    gate.template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
      FunctionName: { Ref: gate.logicalId(gate.stack.gate.reconcile!.function) },
      MaximumRetryAttempts: 2,
      MaximumEventAgeInSeconds: 6 * 3600,
      DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queue, 'Arn'] } } },
    });
    expect(eventDeadLetterQueues(gate.template)).toContain(queue);
  });
});

describe('the dashboard', () => {
  it('shows every alarm of the gate, the fan-out\'s included', () => {
    expect(alarmsOffEveryDashboard(gate.template)).toEqual([]);
    const alarms = Object.keys(gate.template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.filter((id) => id.startsWith('Fanout'))).toHaveLength(4);
  });
});
