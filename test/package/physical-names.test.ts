import { describe, expect, it } from 'vitest';
import type { AssemblyStack } from './assembly-stacks.js';
import { duplicatePhysicalNames, physicalNames } from './physical-names.js';

function stack(id: string, env: { account?: string; region?: string }, resources: Record<string, [string, Record<string, unknown>]>): AssemblyStack {
  return {
    id,
    stackName: id,
    ...env,
    templateFile: `${id}.template.json`,
    template: { Resources: Object.fromEntries(Object.entries(resources).map(([logicalId, [Type, Properties]]) => [logicalId, { Type, Properties }])) },
  };
}

const DUBLIN = { account: '111111111111', region: 'eu-west-1' };
const FRANKFURT = { account: '111111111111', region: 'eu-central-1' };
const OTHER_ACCOUNT = { account: '222222222222', region: 'eu-west-1' };

describe('duplicatePhysicalNames', () => {
  it('finds a name given twice in one account and region, across stacks or within one', () => {
    const a = stack('A', DUBLIN, { Fn: ['AWS::Lambda::Function', { FunctionName: 'validate' }], Q: ['AWS::SQS::Queue', { QueueName: 'ready' }] });
    const b = stack('B', DUBLIN, { Fn: ['AWS::Lambda::Function', { FunctionName: 'validate' }], Q1: ['AWS::SQS::Queue', { QueueName: 'dlq' }], Q2: ['AWS::SQS::Queue', { QueueName: 'dlq' }] });
    expect(duplicatePhysicalNames([a, b])).toEqual([
      { namespace: 'AWS::Lambda::Function', scope: 'aws://111111111111/eu-west-1', name: 'validate', resources: ['A/Fn', 'B/Fn'] },
      { namespace: 'AWS::SQS::Queue', scope: 'aws://111111111111/eu-west-1', name: 'dlq', resources: ['B/Q1', 'B/Q2'] },
    ]);
  });

  it('keeps regional names per account and region, IAM names and dashboards per account, bucket names global', () => {
    const named = (id: string, env: object) => stack(id, env, {
      Fn: ['AWS::Lambda::Function', { FunctionName: 'validate' }],
      Role: ['AWS::IAM::Role', { RoleName: 'gate-role' }],
      Dash: ['AWS::CloudWatch::Dashboard', { DashboardName: 'gate' }],
      Bucket: ['AWS::S3::Bucket', { BucketName: 'acme-lake' }],
    });
    const duplicates = duplicatePhysicalNames([named('Dublin', DUBLIN), named('Frankfurt', FRANKFURT), named('Other', OTHER_ACCOUNT)]);
    expect(duplicates.map((d) => `${d.namespace} ${d.scope} ${d.resources.join(' ')}`)).toEqual([
      'AWS::IAM::Role aws://111111111111 Dublin/Role Frankfurt/Role',
      'AWS::CloudWatch::Dashboard aws://111111111111 Dublin/Dash Frankfurt/Dash',
      'AWS::S3::Bucket aws Dublin/Bucket Frankfurt/Bucket Other/Bucket',
    ]);
  });

  it('does not mix types, nor rules of different event buses, but does mix alarms and composite alarms', () => {
    const a = stack('A', DUBLIN, {
      Topic: ['AWS::SNS::Topic', { TopicName: 'gate' }],
      Queue: ['AWS::SQS::Queue', { QueueName: 'gate' }],
      Rule: ['AWS::Events::Rule', { Name: 'start' }],
      BusRule: ['AWS::Events::Rule', { Name: 'start', EventBusName: 'company-bus' }],
      Alarm: ['AWS::CloudWatch::Alarm', { AlarmName: 'gate-errors' }],
      Composite: ['AWS::CloudWatch::CompositeAlarm', { AlarmName: 'gate-errors' }],
    });
    expect(duplicatePhysicalNames([a]).map((d) => d.resources)).toEqual([['A/Alarm', 'A/Composite']]);
  });

  it('renders a name built of tokens with each stack\'s values: the stack name and region tell stacks apart, a resource reference always does', () => {
    const tokens = (id: string, env: object) => stack(id, env, {
      ByStack: ['AWS::Lambda::Function', { FunctionName: { 'Fn::Join': ['-', [{ Ref: 'AWS::StackName' }, 'validate']] } }],
      ByRegion: ['AWS::SQS::Queue', { QueueName: { 'Fn::Sub': 'gate-${AWS::Region}' } }],
      ByResource: ['AWS::Logs::LogGroup', { LogGroupName: { 'Fn::Join': ['', ['/aws/lambda/', { Ref: 'Fn' }]] } }],
    });
    const [a, b] = [tokens('A', DUBLIN), tokens('B', DUBLIN)];
    expect(physicalNames([a]).map((n) => n.name)).toEqual(['A-validate', 'gate-eu-west-1', '/aws/lambda/<A/Fn>']);
    expect(duplicatePhysicalNames([a, b]).map((d) => d.name)).toEqual(['gate-eu-west-1']);
  });

  it('counts the names of environment-agnostic stacks as one environment\'s, where they would deploy alike', () => {
    const agnostic = (id: string) => stack(id, {}, { Fn: ['AWS::Lambda::Function', { FunctionName: 'validate' }] });
    expect(duplicatePhysicalNames([agnostic('A'), agnostic('B'), stack('C', DUBLIN, { Fn: ['AWS::Lambda::Function', { FunctionName: 'validate' }] })])).toEqual([
      { namespace: 'AWS::Lambda::Function', scope: 'aws://unknown-account/unknown-region', name: 'validate', resources: ['A/Fn', 'B/Fn'] },
    ]);
  });

  it('leaves out resources without a physical name: CloudFormation generates theirs', () => {
    expect(physicalNames([stack('A', DUBLIN, { Fn: ['AWS::Lambda::Function', { Runtime: 'nodejs22.x' }], Policy: ['AWS::IAM::Policy', { PolicyName: 'x' }] })])).toEqual([]);
  });
});
