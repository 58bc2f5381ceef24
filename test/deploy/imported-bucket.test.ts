import type { Role } from 'aws-cdk-lib/aws-iam';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nagFindings, reportedViolations } from './nag-findings.js';
import { asList, synthGate, type GateSynth } from './synth-gate.js';

// `lake` in TEST_ENVIRONMENTS: an existing bucket by name, the gate under custom prefixes and marker.
let gate: GateSynth;

beforeAll(async () => {
  gate = await synthGate('lake');
});
afterAll(() => gate?.dispose());

const objects = (prefix: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, `:s3:::acme-existing-lake/${prefix}*`]] });
const bucketArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':s3:::acme-existing-lake']] };

function s3Statements(role: Role): unknown[] {
  const roleId = gate.logicalId(role);
  const policy = Object.values(gate.template.findResources('AWS::IAM::Policy')).find((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
  return (policy!.Properties.PolicyDocument.Statement as { Action: unknown }[]).filter((s) => asList(s.Action).some((a) => String(a).startsWith('s3:')));
}

describe('an imported bucket', () => {
  it('creates no bucket and no bucket policy: its owner keeps those', () => {
    gate.template.resourceCountIs('AWS::S3::Bucket', 0);
    gate.template.resourceCountIs('AWS::S3::BucketPolicy', 0);
  });

  it('still gets the marker notification, merged into its existing configuration', () => {
    gate.template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: 'acme-existing-lake',
      // Unmanaged: the handler keeps notifications this stack did not create.
      Managed: false,
      NotificationConfiguration: {
        QueueConfigurations: [
          Match.objectLike({
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: Match.arrayEquals([{ Name: 'suffix', Value: '/READY.json' }, { Name: 'prefix', Value: 'gate/in/' }]) } },
          }),
        ],
      },
    });
  });

  it('also runs the reconcile function on registry pointer writes, in the same merged configuration', () => {
    gate.template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: 'acme-existing-lake',
      Managed: false,
      NotificationConfiguration: Match.objectLike({
        LambdaFunctionConfigurations: [Match.objectLike({
          Filter: { Key: { FilterRules: Match.arrayEquals([{ Name: 'suffix', Value: '/current.json' }, { Name: 'prefix', Value: '_contracts/' }]) } },
          LambdaFunctionArn: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.reconcile!.function), 'Arn'] },
        })],
      }),
    });
  });

  it('lets the notifications handler read and write that bucket\'s notification configuration only', () => {
    gate.template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [
          { Effect: 'Allow', Action: 's3:PutBucketNotification', Resource: bucketArn },
          { Effect: 'Allow', Action: 's3:GetBucketNotification', Resource: bucketArn },
        ],
      },
    });
  });

  it('scopes the grants to the configured prefixes of the named bucket', () => {
    expect(s3Statements(gate.stack.gate.validate.role)).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: ['gate/in/', 'gate/out/', 'gate/bad/', 'gate/_state/'].map(objects) },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: ['gate/out/', 'gate/bad/', 'gate/_state/'].map(objects) },
      { Effect: 'Allow', Action: 's3:DeleteObject', Resource: ['gate/in/', 'gate/out/', 'gate/bad/', 'gate/_state/notices/', 'gate/_state/leases/', 'gate/_state/incoming/', 'gate/_state/registry-pages/'].map(objects) },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: bucketArn, Condition: { StringLike: { 's3:prefix': ['gate/in/*', 'gate/out/*', 'gate/bad/*', 'gate/_state/*'] } } },
      // The audit chain, which a killed release's next drop finishes: created only, by the bucket policy its owner adds.
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: objects('_audit/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: bucketArn, Condition: { StringLike: { 's3:prefix': ['_audit/*'] } } },
      // lake says nothing of contracts: they come from the registry, by default under _contracts/.
      { Effect: 'Allow', Action: 's3:GetObject', Resource: objects('_contracts/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: bucketArn, Condition: { StringLike: { 's3:prefix': ['_contracts/*'] } } },
    ]);
    expect(s3Statements(gate.stack.gate.probe.role)).toEqual(expect.arrayContaining([{ Effect: 'Allow', Action: 's3:PutObject', Resource: ['gate/_state/sla/', 'gate/_state/sunset/', 'gate/_state/abandoned/', 'gate/_state/registry-pages/', 'gate/_state/expected/'].map(objects) }]));
  });

  it('tells both functions the bucket name, the prefixes and the marker', () => {
    for (const name of ['contract-gate-lake-validate', 'contract-gate-lake-probe']) {
      gate.template.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: name,
        Environment: {
          Variables: Match.objectLike({
            GATE_BUCKET: 'acme-existing-lake',
            GATE_STAGING_PREFIX: 'gate/in/',
            GATE_PUBLISHED_PREFIX: 'gate/out/',
            GATE_QUARANTINE_PREFIX: 'gate/bad/',
            GATE_STATE_PREFIX: 'gate/_state/',
            GATE_MARKER: 'READY.json',
          }),
        },
      });
    }
  });

  it('uses the defaults where the environment sets nothing', () => {
    gate.template.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'contract-gate-lake-validate', MemorySize: 1769, Timeout: 300 });
    gate.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'contract-gate-lake-ready', VisibilityTimeout: 360 });
    gate.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { ScalingConfig: { MaximumConcurrency: 10 } });
    gate.template.hasResourceProperties('AWS::Events::Rule', { ScheduleExpression: 'rate(5 minutes)' });
    gate.template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: '/aws/lambda/contract-gate-lake-validate', RetentionInDays: 30 });
  });

  it('passes the cdk-nag AwsSolutions checks too', () => {
    expect(nagFindings(gate.stack)).toEqual([]);
    expect(reportedViolations(gate)).toEqual([]);
  });
});
