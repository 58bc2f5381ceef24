import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal, type IRole } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';
import { nagFindings } from './nag-findings.js';
import { asList } from './synth-gate.js';

const ENV = { account: '111111111111', region: 'eu-west-1' };
const LAKE = 'acme-lake';
const KEY_ARN = 'arn:aws:kms:eu-west-1:111111111111:key/0a1b2c3d-1111-2222-3333-444455556666';

type Statement = { Effect: string; Action: string | string[]; Resource: unknown; Condition?: unknown; Principal?: unknown };

/** Every statement of the policies attached to `role`, rendered as text so ARNs compare plainly. */
function roleStatements(template: Template, stack: Stack, role: IRole): Statement[] {
  const roleId = stack.getLogicalId(role.node.defaultChild as never);
  const policies = Object.values(template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
}

const partitioned = (suffix: string) => ({ 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, suffix]] });
const objects = (prefix: string) => partitioned(`:s3:::${LAKE}/${prefix}*`);
const lakeArn = partitioned(`:s3:::${LAKE}`);
/** The KMS statements on `key` (the notices topic's own key is another matter). */
const kms = (statements: Statement[], key: unknown = KEY_ARN) => statements.filter((s) => asList(s.Action).some((a) => String(a).startsWith('kms:')) && JSON.stringify(s.Resource) === JSON.stringify(key));
const s3 = (statements: Statement[]) => statements.filter((s) => asList(s.Action).some((a) => String(a).startsWith('s3:')));

describe('a gate on an existing SSE-KMS bucket and its key, with a producer and a consumer', () => {
  let stack: Stack;
  let gate: ContractGate;
  let template: Template;
  let producer: Role;
  let consumer: Role;
  beforeAll(() => {
    stack = new Stack(new App(), 'Lake', { env: ENV });
    const key = Key.fromKeyArn(stack, 'LakeKey', KEY_ARN);
    const bucket = Bucket.fromBucketAttributes(stack, 'LakeBucket', { bucketName: LAKE, encryptionKey: key });
    gate = new ContractGate(stack, 'Gate', { bucket, fanout: { bucketEventBridge: 'enabled-by-owner' } });
    producer = new Role(stack, 'OrdersCi', { assumedBy: new ServicePrincipal('codebuild.amazonaws.com') });
    consumer = new Role(stack, 'Analytics', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') });
    gate.grantProducer(producer, 'orders');
    gate.grantConsumer(consumer, 'orders');
    template = Template.fromStack(stack);
  });

  it('takes the key from the bucket', () => {
    expect(gate.encryptionKey?.keyArn).toBe(KEY_ARN);
  });

  it('gives the producer exactly its dataset\'s prefixes, and kms:Decrypt and kms:GenerateDataKey on the key', () => {
    expect(roleStatements(template, stack, producer)).toEqual([
      { Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject'], Resource: objects('staging/orders/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: lakeArn, Condition: { StringLike: { 's3:prefix': ['staging/orders/*'] } } },
      { Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Resource: KEY_ARN },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: [objects('_gate/decisions/orders/'), objects('quarantine/orders/')] },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: lakeArn, Condition: { StringLike: { 's3:prefix': ['_gate/decisions/orders/*', 'quarantine/orders/*'] } } },
      { Effect: 'Allow', Action: 'kms:Decrypt', Resource: KEY_ARN },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: objects('_contracts/orders/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: lakeArn, Condition: { StringLike: { 's3:prefix': ['_contracts/orders/*'] } } },
    ]);
  });

  it('gives the consumer exactly what was published of its dataset, and kms:Decrypt only', () => {
    expect(roleStatements(template, stack, consumer)).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: objects('published/orders/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: lakeArn, Condition: { StringLike: { 's3:prefix': ['published/orders/*'] } } },
      { Effect: 'Allow', Action: 'kms:Decrypt', Resource: KEY_ARN },
    ]);
  });

  it('lets every gate role that reads the bucket decrypt with the key, and those that write generate data keys', () => {
    const writers = [gate.validate.role, gate.probe.role, gate.reconcile!.role, ...gate.fanout!.functions.all.map((f) => f.role)];
    for (const role of writers) {
      expect(kms(roleStatements(template, stack, role)), role.node.path).toEqual([{ Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Resource: KEY_ARN }]);
    }
    const itemReader = roleStatements(template, stack, gate.stateMachine!.role);
    expect(kms(itemReader)).toEqual([{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: KEY_ARN }]);
  });

  it('leaves the bucket\'s EventBridge delivery as its owner set it', () => {
    const [notifications] = Object.values(template.findResources('Custom::S3BucketNotifications'));
    expect(notifications!.Properties.NotificationConfiguration.EventBridgeConfiguration).toBeUndefined();
    template.resourceCountIs('AWS::Events::Rule', 3);
  });

  it('acknowledges the wildcard findings its grants add to the producer and consumer, each by its ARN', () => {
    const findings = nagFindings(stack).filter((f) => f.includes('/OrdersCi/') || f.includes('/Analytics/'));
    expect(findings).toEqual([]);
  });

  it('refuses a role of another account, naming what the bucket\'s and key\'s owner must add', () => {
    const outsider = Role.fromRoleArn(stack, 'Outsider', 'arn:aws:iam::222222222222:role/analytics');
    expect(() => gate.grantConsumer(outsider, 'orders')).toThrow(/account 222222222222, not the bucket's[\s\S]*bucket policy of acme-lake: Allow s3:GetObject on published\/orders\/\*[\s\S]*key policy of arn:aws:kms:.*: Allow kms:Decrypt/);
  });
});

describe('a gate on a bucket it creates', () => {
  it('encrypts it with the key given (SSE-KMS, S3 Bucket Keys on), and the grants include that key', () => {
    const stack = new Stack(new App(), 'Created', { env: ENV });
    const key = new Key(stack, 'LakeKey', { enableKeyRotation: true });
    const gate = new ContractGate(stack, 'Gate', { encryptionKey: key });
    const consumer = new Role(stack, 'Analytics', { assumedBy: new ServicePrincipal('ec2.amazonaws.com') });
    gate.grantConsumer(consumer, 'orders');
    const template = Template.fromStack(stack);
    const keyArn = { 'Fn::GetAtt': [stack.getLogicalId(key.node.defaultChild as never), 'Arn'] };
    template.hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ BucketKeyEnabled: true, ServerSideEncryptionByDefault: { SSEAlgorithm: 'aws:kms', KMSMasterKeyID: keyArn } }] },
    });
    expect(kms(roleStatements(template, stack, consumer), keyArn)).toEqual([{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: keyArn }]);
    expect(kms(roleStatements(template, stack, gate.validate.role), keyArn)).toEqual([{ Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Resource: keyArn }]);
  });

  it('allows a role of another account on the bucket policy, where its own account cannot be changed', () => {
    const stack = new Stack(new App(), 'Shared', { env: ENV });
    const gate = new ContractGate(stack, 'Gate');
    const outsider = Role.fromRoleArn(stack, 'Outsider', 'arn:aws:iam::222222222222:role/analytics');
    gate.grantConsumer(outsider, 'orders');
    const statements = Object.values(Template.fromStack(stack).findResources('AWS::S3::BucketPolicy')).flatMap((p) => p.Properties.PolicyDocument.Statement as Statement[]);
    const allowed = statements.filter((s) => s.Effect === 'Allow' && JSON.stringify(s.Principal).includes('222222222222'));
    expect(allowed.map((s) => [s.Action, JSON.stringify(s.Resource).includes('/published/orders/*') || JSON.stringify(s.Condition).includes('published/orders/*')])).toEqual([['s3:GetObject', true], ['s3:ListBucket', true]]);
    expect(s3(allowed)).toHaveLength(2);
  });

  it('grants nothing of the key to an SSE-S3 bucket\'s roles', () => {
    const stack = new Stack(new App(), 'Plain');
    const gate = new ContractGate(stack, 'Gate');
    const producer = new Role(stack, 'OrdersCi', { assumedBy: new ServicePrincipal('codebuild.amazonaws.com') });
    gate.grantProducer(producer, 'orders');
    const template = Template.fromStack(stack);
    expect(roleStatements(template, stack, producer).filter((s) => asList(s.Action).some((a) => String(a).startsWith('kms:')))).toEqual([]);
    template.hasResourceProperties('AWS::S3::Bucket', { BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] }, VersioningConfiguration: Match.anyValue() });
  });
});
