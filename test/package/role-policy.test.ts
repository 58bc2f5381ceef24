import { describe, expect, it } from 'vitest';
import { allows, bucketPrefixes, roleStatements } from './role-policy.js';

const BUCKET = { 'Fn::GetAtt': ['LakeBucket', 'Arn'] };
const objects = (prefix: string) => ({ 'Fn::Join': ['', [BUCKET, `/${prefix}*`]] });
const KEY = 'arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab';

const TEMPLATE = {
  Resources: {
    Producer: { Type: 'AWS::IAM::Role', Properties: { Policies: [{ PolicyName: 'inline', PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 'kms:Decrypt', Resource: KEY }] } }] } },
    Consumer: { Type: 'AWS::IAM::Role', Properties: {} },
    ProducerDefaultPolicy: {
      Type: 'AWS::IAM::Policy',
      Properties: {
        Roles: [{ Ref: 'Producer' }],
        PolicyDocument: {
          Statement: [
            { Effect: 'Allow', Action: ['s3:PutObject', 's3:GetObject'], Resource: objects('staging/orders/') },
            { Effect: 'Allow', Action: 's3:GetObject', Resource: [objects('quarantine/orders/'), objects('_gate/decisions/orders/')] },
            { Effect: 'Allow', Action: 's3:ListBucket', Resource: BUCKET, Condition: { StringLike: { 's3:prefix': ['staging/orders/*'] } } },
            { Effect: 'Allow', Action: ['kms:GenerateDataKey*', 'kms:Encrypt'], Resource: KEY },
          ],
        },
      },
    },
    Shared: { Type: 'AWS::IAM::ManagedPolicy', Properties: { Roles: [{ Ref: 'Producer' }, { Ref: 'Consumer' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: objects('published/orders/') }] } } },
    ConsumerDefaultPolicy: { Type: 'AWS::IAM::Policy', Properties: { Roles: [{ Ref: 'Consumer' }], PolicyDocument: { Statement: [{ Effect: 'Allow', Action: 's3:ListBucket', Resource: BUCKET }] } } },
  },
};

describe('roleStatements', () => {
  it('gathers a role\'s inline, attached and managed policies, and no other role\'s', () => {
    expect(roleStatements(TEMPLATE, 'Producer').map((s) => s.source)).toEqual(['Producer', 'ProducerDefaultPolicy', 'ProducerDefaultPolicy', 'ProducerDefaultPolicy', 'ProducerDefaultPolicy', 'Shared']);
    expect(roleStatements(TEMPLATE, 'Consumer').map((s) => s.source)).toEqual(['Shared', 'ConsumerDefaultPolicy']);
  });

  it('flattens resource tokens as cdk-nag names them', () => {
    expect(roleStatements(TEMPLATE, 'Consumer')[0]!.resources).toEqual(['<LakeBucket.Arn>/published/orders/*']);
  });

  it('names the roles there are when asked for one that is not', () => {
    expect(() => roleStatements(TEMPLATE, 'Missing')).toThrow(/no AWS::IAM::Role Missing .*roles: Producer, Consumer/);
  });
});

describe('allows', () => {
  it('matches IAM wildcards in actions (case-insensitively) and in resources', () => {
    const producer = roleStatements(TEMPLATE, 'Producer');
    expect(allows(producer, 'kms:Decrypt', KEY)).toBe(true);
    expect(allows(producer, 'kms:GenerateDataKey', KEY)).toBe(true);
    expect(allows(producer, 'KMS:generatedatakeywithoutplaintext', KEY)).toBe(true);
    expect(allows(producer, 's3:PutObject', '<LakeBucket.Arn>/staging/orders/dt=2026-12-01/part-0.parquet')).toBe(true);
    expect(allows(producer, 's3:PutObject', '<LakeBucket.Arn>/staging/payments/part-0.parquet')).toBe(false);
    expect(allows(roleStatements(TEMPLATE, 'Consumer'), 'kms:Decrypt', KEY)).toBe(false);
  });
});

describe('bucketPrefixes', () => {
  it('lists, per action, the prefixes of the bucket a role reaches; an unconditioned list reaches all of it', () => {
    expect(bucketPrefixes(roleStatements(TEMPLATE, 'Producer'), '<LakeBucket.Arn>')).toEqual({
      's3:GetObject': ['_gate/decisions/orders/', 'published/orders/', 'quarantine/orders/', 'staging/orders/'],
      's3:ListBucket': ['staging/orders/'],
      's3:PutObject': ['staging/orders/'],
    });
    expect(bucketPrefixes(roleStatements(TEMPLATE, 'Consumer'), '<LakeBucket.Arn>')).toEqual({ 's3:GetObject': ['published/orders/'], 's3:ListBucket': ['*'] });
    expect(bucketPrefixes(roleStatements(TEMPLATE, 'Consumer'), '<OtherBucket.Arn>')).toEqual({});
  });
});
