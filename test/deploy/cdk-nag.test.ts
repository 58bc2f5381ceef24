import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acknowledgements, nagFindings, reportedViolations } from './nag-findings.js';
import { synthGate, type GateSynth } from './synth-gate.js';

// The app registers AwsSolutionsChecks as a validation plugin, so this synth would already have
// thrown on an error finding; the assertions below also catch warnings.
let gate: GateSynth;

beforeAll(async () => {
  gate = await synthGate('dev');
});
afterAll(() => gate?.dispose());

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged, error or warning', () => {
    expect(nagFindings(gate.stack)).toEqual([]);
    expect(reportedViolations(gate)).toEqual([]);
  });

  it('leaves no error or warning annotation on the stack', () => {
    const annotations = Annotations.fromStack(gate.stack);
    expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
    expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue())).toEqual([]);
  });

  it('acknowledges only these rules, each with a reason of its own', () => {
    const acks = acknowledgements(gate.app);
    const rules = acks.map((a) => `${a.path.replace(/^ContractGate-dev\/(Default\/)?/, '')}: ${a.id.replace(/\[Resource::.*\]$/, '[Resource::<object ARN>]')}`);
    expect([...new Set(rules)].sort()).toEqual([
      'BucketNotificationsHandler050a0587b7544547bf325f094a3db834: AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      // The fan-out, on by default: its functions and state machine acknowledge what the validate function's do.
      'Fanout/Functions/Decide/Function: AwsSolutions-L1',
      'Fanout/Functions/Decide/Role: AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      'Fanout/Functions/Decide/Role: AwsSolutions-IAM5[Resource::<object ARN>]',
      'Fanout/Functions/MapFile/Function: AwsSolutions-L1',
      'Fanout/Functions/MapFile/Role: AwsSolutions-IAM5[Resource::<object ARN>]',
      'Fanout/Functions/Plan/Function: AwsSolutions-L1',
      'Fanout/Functions/Plan/Role: AwsSolutions-IAM5[Resource::<object ARN>]',
      'Fanout/Functions/ReduceShard/Function: AwsSolutions-L1',
      'Fanout/Functions/ReduceShard/Role: AwsSolutions-IAM5[Resource::<object ARN>]',
      'Fanout/RequestedDeadLetters/Queue: AwsSolutions-SQS3',
      'Fanout/StateMachine: AwsSolutions-IAM5[Resource::<object ARN>]',
      'GateBucket/AccessLogs: AwsSolutions-S1',
      'Probe/Function: AwsSolutions-L1',
      'Probe/Role: AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      'Probe/Role: AwsSolutions-IAM5[Resource::<object ARN>]',
      'Probe/ScheduleDeadLetters/Queue: AwsSolutions-SQS3',
      'Validate/Function: AwsSolutions-L1',
      'Validate/Role: AwsSolutions-IAM5[Action::kms:GenerateDataKey*]',
      'Validate/Role: AwsSolutions-IAM5[Resource::<object ARN>]',
    ]);
    for (const ack of acks) expect(ack.reason.length, ack.id).toBeGreaterThan(60);
  });

  it('acknowledges wildcard object ARNs one prefix at a time', () => {
    const wildcards = acknowledgements(gate.app).filter((a) => a.path.endsWith('Validate/Role') && a.id.includes('[Resource::')).map((a) => a.id).sort();
    const bucket = gate.logicalId(gate.stack.gate.gateBucket.bucket);
    expect(wildcards).toEqual(['_audit', '_gate', '_gate/incoming', '_gate/leases', '_gate/notices', '_gate/registry-pages', 'published', 'quarantine', 'staging'].map((p) => `AwsSolutions-IAM5[Resource::<${bucket}.Arn>/${p}/*]`));
  });

  // Last: it changes the synthesized tree.
  it('still reports a wildcard nobody acknowledged', () => {
    gate.stack.gate.validate.function.addToRolePolicy(new PolicyStatement({ actions: ['s3:*'], resources: ['*'] }));
    expect(nagFindings(gate.stack)).toEqual([
      'AwsSolutions-IAM5[Action::s3:*] (error) at ContractGate-dev/Default/Validate/Role/DefaultPolicy/Resource',
      'AwsSolutions-IAM5[Resource::*] (error) at ContractGate-dev/Default/Validate/Role/DefaultPolicy/Resource',
    ]);
  });
});
