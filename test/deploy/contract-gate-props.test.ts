import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Duration, Fn, RemovalPolicy, Stack, Tags } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';
import type { ContractGateProps } from '../../lib/deploy/contract-gate-props.js';
import { gateSettings } from '../../lib/deploy/gate-settings.js';
import { repositoryContracts } from './synth-gate.js';

const NAME_KEYS = ['FunctionName', 'QueueName', 'TopicName', 'AliasName', 'Name', 'RuleName', 'StateMachineName', 'LogGroupName', 'DashboardName', 'AlarmName', 'BucketName'];

/** Every literal physical name in the template (a generated name is absent, or a token), as `<type> <name>`. */
function physicalNames(template: Template): string[] {
  return Object.values(template.toJSON().Resources as Record<string, { Type: string; Properties?: Record<string, unknown> }>).flatMap((r) =>
    NAME_KEYS.map((k) => r.Properties?.[k]).filter((v): v is string => typeof v === 'string').map((name) => `${r.Type} ${name}`),
  );
}

/** Names are unique per type (a rule may share its function's name): two of one type collide. */
const duplicates = (names: readonly string[]) => names.filter((name, i) => names.indexOf(name) !== i);

describe('two gates in one stack', () => {
  let template: Template;
  beforeAll(() => {
    const stack = new Stack(new App(), 'Lake');
    new ContractGate(stack, 'Orders');
    new ContractGate(stack, 'Payments');
    template = Template.fromStack(stack);
  });

  it('have no physical name in common: CloudFormation generates them', () => {
    const names = physicalNames(template);
    expect(duplicates(names)).toEqual([]);
    // Only the fan-out's vended log groups are named, by their construct path: Step Functions wants that prefix.
    expect(names.sort()).toEqual([expect.stringMatching(/^AWS::Logs::LogGroup \/aws\/vendedlogs\/states\/Lake-Orders-Fanout-/), expect.stringMatching(/^AWS::Logs::LogGroup \/aws\/vendedlogs\/states\/Lake-Payments-Fanout-/)]);
    template.resourceCountIs('AWS::Lambda::Function', 2 * 7 + 1);
  });

  it('tag their resources with their own gate, and set no tag a company sets', () => {
    template.hasResourceProperties('AWS::SQS::Queue', { Tags: Match.arrayWith([{ Key: 'contract-gate:gate', Value: Match.stringLikeRegexp('^LakeOrders') }]) });
    template.hasResourceProperties('AWS::SQS::Queue', { Tags: Match.arrayWith([{ Key: 'contract-gate:gate', Value: Match.stringLikeRegexp('^LakePayments') }]) });
    const keys = Object.values(template.toJSON().Resources as Record<string, { Properties?: { Tags?: { Key: string }[] } }>).flatMap((r) => (Array.isArray(r.Properties?.Tags) ? r.Properties.Tags.map((t) => t.Key) : []));
    expect([...new Set(keys)]).toEqual(['contract-gate:gate']);
  });
});

describe('a gate with a namePrefix', () => {
  it('names every resource with it, and two prefixes collide nowhere', () => {
    const stack = new Stack(new App(), 'Lake');
    Tags.of(stack).add('environment', 'production');
    new ContractGate(stack, 'Orders', { namePrefix: 'orders-gate', gateName: 'orders' });
    new ContractGate(stack, 'Payments', { namePrefix: 'payments-gate', gateName: 'payments' });
    const template = Template.fromStack(stack);
    const names = physicalNames(template);
    expect(duplicates(names)).toEqual([]);
    expect(names.length).toBeGreaterThanOrEqual(2 * 20);
    for (const name of names) expect(name).toMatch(/^[A-Za-z:]+ (\/aws\/lambda\/|\/aws\/vendedlogs\/states\/|alias\/)?(orders|payments)-gate(-|$)/);
    template.hasResourceProperties('AWS::Lambda::Function', { FunctionName: 'orders-gate-validate', Environment: { Variables: Match.objectLike({ GATE_NAME: 'orders' }) } });
    template.hasResourceProperties('AWS::KMS::Alias', { AliasName: 'alias/payments-gate-notices' });
    // The company's own tag stays as it set it.
    const [tags] = Object.values(template.findResources('AWS::SQS::Queue', { Properties: { QueueName: 'orders-gate-ready' } })).map((q) => q.Properties.Tags);
    expect(tags).toEqual(expect.arrayContaining([{ Key: 'environment', Value: 'production' }, { Key: 'contract-gate:gate', Value: 'orders' }]));
  });
});

describe('an existing topic and alarm actions', () => {
  it('are used instead of a topic of the gate\'s own', () => {
    const stack = new Stack(new App(), 'Lake');
    const topic = Topic.fromTopicArn(stack, 'Alerts', 'arn:aws:sns:eu-west-1:111111111111:data-alerts');
    const pager = new Topic(stack, 'Pager');
    new ContractGate(stack, 'Gate', { topic, alarmActions: [new SnsAction(pager)] });
    const template = Template.fromStack(stack);
    template.resourceCountIs('AWS::SNS::Topic', 1);
    template.resourceCountIs('AWS::KMS::Key', 0);
    template.hasResourceProperties('AWS::IAM::Policy', { PolicyDocument: { Statement: Match.arrayWith([{ Effect: 'Allow', Action: 'sns:Publish', Resource: topic.topicArn }]) } });
    template.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ GATE_TOPIC_ARN: topic.topicArn }) } });
    const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm'));
    expect(alarms.length).toBeGreaterThanOrEqual(8);
    const pagerRef = { Ref: stack.getLogicalId(pager.node.defaultChild as never) };
    for (const alarm of alarms) expect([alarm.Properties.AlarmActions, alarm.Properties.OKActions]).toEqual([[pagerRef], [pagerRef]]);
  });
});

describe('an existing bucket named by a token', () => {
  it('synthesizes, with the grants and the notification on that name', () => {
    const stack = new Stack(new App(), 'Lake');
    const bucket = Bucket.fromBucketName(stack, 'Lake', Fn.importValue('LakeBucketName'));
    new ContractGate(stack, 'Gate', { bucket, fanout: { bucketEventBridge: 'enable' } });
    const template = Template.fromStack(stack);
    template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { 'Fn::ImportValue': 'LakeBucketName' },
      NotificationConfiguration: Match.objectLike({ EventBridgeConfiguration: {} }),
    });
    template.hasResourceProperties('AWS::Lambda::Function', { Environment: { Variables: Match.objectLike({ GATE_BUCKET: { 'Fn::ImportValue': 'LakeBucketName' } }) } });
  });

  it('of another stack synthesizes too, imported by name or passed as it is', () => {
    const app = new App();
    const storage = new Stack(app, 'Storage');
    const lake = new Bucket(storage, 'Lake', { encryptionKey: new Key(storage, 'LakeKey') });
    const byName = new Stack(app, 'ByName');
    new ContractGate(byName, 'Gate', { bucket: Bucket.fromBucketName(byName, 'Lake', lake.bucketName), fanout: { bucketEventBridge: 'enabled-by-owner' } });
    // Passed as it is, the notifications stay in the gate's stack: Storage never refers to it (no cycle).
    const direct = new Stack(app, 'Direct');
    const gate = new ContractGate(direct, 'Gate', { bucket: lake, fanout: { bucketEventBridge: 'enable' } });
    expect(() => app.synth()).not.toThrow();
    expect(gate.encryptionKey).toBe(lake.encryptionKey);
    Template.fromStack(direct).resourceCountIs('Custom::S3BucketNotifications', 1);
    Template.fromStack(storage).resourceCountIs('Custom::S3BucketNotifications', 0);
  });
});

describe('runtime and removalPolicy', () => {
  it('reach every function, and the created bucket, keys and log groups', () => {
    const stack = new Stack(new App(), 'Lake');
    new ContractGate(stack, 'Gate', { runtime: Runtime.NODEJS_24_X, removalPolicy: RemovalPolicy.DESTROY });
    const template = Template.fromStack(stack);
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => /^contract-gate/.test(String(f.Properties.Description)));
    expect(functions.map((f) => f.Properties.Runtime)).toEqual(Array(7).fill('nodejs24.x'));
    for (const type of ['AWS::S3::Bucket', 'AWS::KMS::Key', 'AWS::Logs::LogGroup']) {
      const resources = Object.values(template.findResources(type));
      expect(resources.map((r) => r.DeletionPolicy), type).toEqual(Array(resources.length).fill('Delete'));
    }
  });

  it('keep everything by default', () => {
    const stack = new Stack(new App(), 'Lake');
    new ContractGate(stack, 'Gate', { fanout: { enabled: false } });
    const template = Template.fromStack(stack);
    for (const type of ['AWS::S3::Bucket', 'AWS::KMS::Key', 'AWS::Logs::LogGroup']) {
      for (const resource of Object.values(template.findResources(type))) expect(resource.DeletionPolicy, type).toBe('Retain');
    }
    const functions = Object.values(template.findResources('AWS::Lambda::Function')).filter((f) => /^contract-gate/.test(String(f.Properties.Description)));
    expect(functions.map((f) => f.Properties.Runtime)).toEqual(Array(3).fill('nodejs22.x'));
  });
});

describe('a default that used to be silent', () => {
  /** A gate of these props, on an existing bucket when `existing`. */
  const build = (props: ContractGateProps, existing = false) => () => {
    const stack = new Stack(new App(), 'Lake');
    new ContractGate(stack, 'Gate', existing ? { ...props, bucket: Bucket.fromBucketName(stack, 'Lake', 'acme-lake') } : props);
  };

  it('bundledContracts beside a registry is an error naming the prop', async () => {
    const contracts = await repositoryContracts();
    expect(build({ bundledContracts: contracts })).toThrow(/- bundledContracts: ships only with contracts.source "bundled"/);
  });

  it('bundled contracts with none to bundle are an error naming the prop', () => {
    expect(build({ contracts: { source: 'bundled' }, bundledContracts: [] })).toThrow(/- bundledContracts: is empty/);
    const empty = mkdtempSync(join(tmpdir(), 'no-contracts-'));
    expect(() => gateSettings({ contracts: { source: 'bundled' } }, 'gate', 'props', empty)).toThrow(`- bundledContracts: contracts.source "bundled" ships contracts with the functions, but none were given and ${empty} has no *.yaml`);
  });

  it('a contract made in code, with no file to ship, is an error naming it', async () => {
    const [orders] = await repositoryContracts();
    const { origin: _file, ...inCode } = orders!;
    expect(build({ contracts: { source: 'bundled' }, bundledContracts: [orders!, inCode] })).toThrow(/- bundledContracts\[1\]: contract "orders" has no file/);
  });

  it('the fan-out on an existing bucket says who turns on its EventBridge delivery', () => {
    expect(build({}, true)).toThrow(/- fanout.bucketEventBridge: required with an existing bucket/);
    expect(build({ fanout: { enabled: false } }, true)).not.toThrow();
    expect(build({ fanout: { bucketEventBridge: 'enabled-by-owner' } })).toThrow(/- fanout.bucketEventBridge: the gate creates this bucket/);
  });

  it('retention and lock settings for an existing bucket are errors, all named in one message', () => {
    expect(build({ fanout: { enabled: false }, bucketName: 'x-lake', quarantineRetention: Duration.days(10), stagingExpiration: Duration.days(3), objectLock: {} }, true)).toThrow(
      /- bucketName: applies to a bucket the gate creates[\s\S]*- quarantineRetention: applies[\s\S]*- stagingExpiration: applies[\s\S]*- objectLock: applies/,
    );
  });

  it('alert e-mails for an existing topic are an error', () => {
    const stack = new Stack(new App(), 'Lake');
    const topic = Topic.fromTopicArn(stack, 'Alerts', 'arn:aws:sns:eu-west-1:111111111111:data-alerts');
    expect(() => new ContractGate(stack, 'Gate', { topic, alertEmails: ['oncall@example.com'] })).toThrow(/- alertEmails: subscribes addresses to a topic the gate creates/);
  });

  it('a mistyped Duration, Size or name is named with what was expected', () => {
    expect(build({ namePrefix: 'Orders Gate', gateName: 'orders gate', validateTimeout: Duration.minutes(20), stateRetention: Duration.days(3), probeInterval: Duration.seconds(90) })).toThrow([
      'ContractGate "Lake/Gate" is invalid:',
      '  - validateTimeout: expected whole seconds from 10 to 900 (Duration.seconds(n)), got 20 minutes',
      '  - gateName: expected 1-64 characters of A-Z, a-z, 0-9, "-" and "_", got "orders gate"',
      '  - namePrefix: expected 1-40 characters of a-z, 0-9 and "-", starting with a letter, got "Orders Gate"',
      '  - probeInterval: expected whole minutes from 1 to 1440 (Duration.minutes(n)), got 1 minute 30 seconds',
      '  - stateRetention: expected whole days from 15 to 36500 (Duration.days(n)), got 3 days',
    ].join('\n'));
  });
});
