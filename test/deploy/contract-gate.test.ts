import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';
import { synthGate, type GateSynth } from './synth-gate.js';

/** The statements of every role policy whose role is `roleId`'s, flattened. */
function statementsOf(template: Template, roleLogicalId: string): { Action: string | string[]; Resource: unknown; Condition?: unknown }[] {
  const policies = template.findResources('AWS::IAM::Policy', { Properties: { Roles: Match.arrayWith([{ Ref: roleLogicalId }]) } });
  return Object.values(policies).flatMap((p) => (p as { Properties: { PolicyDocument: { Statement: never[] } } }).Properties.PolicyDocument.Statement);
}
const actions = (statement: { Action: string | string[] }) => [statement.Action].flat();
const text = (value: unknown) => JSON.stringify(value);

describe('new ContractGate(stack, id) with no props, in a stack of ones own', () => {
  let template: Template;
  let stack: Stack;
  let gate: ContractGate;
  beforeAll(() => {
    stack = new Stack(new App(), 'DataLake');
    gate = new ContractGate(stack, 'Gate');
    gate.grantProducer(new Role(stack, 'OrdersCi', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') }), 'orders');
    gate.grantConsumer(new Role(stack, 'Analytics', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') }), 'orders');
    template = Template.fromStack(stack);
  });

  it('deploys a working gate on a new versioned bucket, reading contracts from its registry', () => {
    template.hasResourceProperties('AWS::S3::Bucket', { VersioningConfiguration: { Status: 'Enabled' } });
    template.hasResourceProperties('AWS::Lambda::Function', {
      Description: Match.stringLikeRegexp('validates a dropped partition'),
      Environment: { Variables: Match.objectLike({ GATE_CONTRACTS_SOURCE: 'registry', GATE_NAME: gate.gateName, POWERTOOLS_METRICS_NAMESPACE: 'ContractGate', POWERTOOLS_SERVICE_NAME: 'contract-gate' }) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('subscribes the owners') });
    template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
  });

  it('lets a producer drop and register only its own dataset, and a consumer read only what was published of it', () => {
    const producer = text(statementsOf(template, stack.getLogicalId(stack.node.findChild('OrdersCi').node.defaultChild as never)));
    expect(producer).toContain('/staging/orders/*');
    expect(producer).toContain('/_contracts/orders/*');
    expect(producer).toContain('/_gate/decisions/orders/*');
    expect(producer).not.toContain('/published/');
    const consumer = statementsOf(template, stack.getLogicalId(stack.node.findChild('Analytics').node.defaultChild as never));
    expect(consumer.map(actions).flat().sort()).toEqual(['s3:GetObject', 's3:ListBucket']);
    expect(text(consumer)).toContain('/published/orders/*');
    expect(() => gate.grantConsumer(new Role(stack, 'Sneaky', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') }), 'orders/*')).toThrow('is not a dataset name');
  });
});

describe('cdk synth -c env=prod', () => {
  let synth: GateSynth;
  beforeAll(async () => {
    synth = await synthGate('prod');
  });
  afterAll(() => synth.dispose());

  it('has a dashboard with the drop outcomes per contract, the probe misses and every alarm', () => {
    const dashboards = synth.template.findResources('AWS::CloudWatch::Dashboard', { Properties: { DashboardName: 'contract-gate-prod' } });
    expect(Object.keys(dashboards)).toHaveLength(1);
    const body = text(Object.values(dashboards)[0]);
    for (const metric of ['DropsPublished', 'DropsQuarantined', 'DropsRefused', 'RowsChecked', 'BytesRead', 'ValidationSeconds', 'MarkerToVerdictSeconds', 'ProbeMisses']) expect(body).toContain(`MetricName=\\\\\\"${metric}`);
    for (const alarm of ['DeadLetters', 'ValidateErrors', 'MarkerFailures', 'ProbeErrors', 'QueueAge']) expect(body).toMatch(new RegExp(`"Alarms${alarm}[0-9A-F]{8}","Arn"`));
  });

  it('lets the probe write and delete only its own claims, and the validate function delete no decision', () => {
    const probe = statementsOf(synth.template, synth.logicalId(synth.stack.gate.probe.role));
    const probeDeletes = probe.filter((s) => actions(s).includes('s3:DeleteObject')).map((s) => text(s.Resource));
    expect(probeDeletes.join()).toContain('/_gate/sla/*');
    expect(probeDeletes.join()).toContain('/_gate/sunset/*');
    expect(probeDeletes.join()).not.toMatch(/_gate\/\*/);
    const validate = statementsOf(synth.template, synth.logicalId(synth.stack.gate.validate.role));
    const deletes = validate.filter((s) => actions(s).includes('s3:DeleteObject')).map((s) => text(s.Resource)).join();
    expect(deletes).toContain('/_gate/notices/*');
    expect(deletes).toContain('/_gate/leases/*');
    expect(deletes).toContain('/_gate/incoming/*');
    expect(deletes).not.toMatch(/_gate\/\*|_gate\/decisions/);
  });

  it('lets CloudWatch use the topic key only for this account\'s alarms', () => {
    synth.template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Condition: { StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } }, ArnLike: Match.anyValue() } })]) },
    });
  });

  it('expires staged files only when asked to, and tells the probe when a drop counts as abandoned', () => {
    const stack = new Stack(new App(), 'Expiring');
    new ContractGate(stack, 'Gate', { stagingExpiration: Duration.days(14), abandonedAfter: Duration.hours(6) });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-noncurrent-staging', Prefix: 'staging/', ExpirationInDays: 14 })]) },
    });
    template.hasResourceProperties('AWS::Lambda::Function', { Description: Match.stringLikeRegexp('clock SLA'), Environment: { Variables: Match.objectLike({ GATE_ABANDONED_AFTER_HOURS: '6' }) } });
    expect(synth.template.findResources('AWS::S3::Bucket', { Properties: { LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ ExpirationInDays: Match.anyValue(), Prefix: 'staging/' })]) } } })).toEqual({});
  });

  it('keeps old versions of staged files a day, and retries a failed marker within minutes', () => {
    synth.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([Match.objectLike({ Id: 'expire-noncurrent-staging', Prefix: 'staging/', NoncurrentVersionExpiration: { NoncurrentDays: 1 } })]) },
    });
    synth.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'contract-gate-prod-ready', VisibilityTimeout: 660, RedrivePolicy: Match.objectLike({ maxReceiveCount: 10 }) });
  });
});
