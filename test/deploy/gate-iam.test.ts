import type { Role } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allStatements, asList, objectArn, synthGate, type GateSynth } from './synth-gate.js';

let gate: GateSynth;
let bucket: string;

beforeAll(async () => {
  gate = await synthGate('dev');
  bucket = gate.logicalId(gate.stack.gate.gateBucket.bucket);
});
afterAll(() => gate?.dispose());

/** The statements of the policy attached to a role, in order. */
function roleStatements(role: Role): Record<string, unknown>[] {
  const roleId = gate.logicalId(role);
  const policies = Object.values(gate.template.findResources('AWS::IAM::Policy')).filter((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
  expect(policies).toHaveLength(1);
  return policies[0]!.Properties.PolicyDocument.Statement;
}

const s3Statements = (statements: Record<string, unknown>[]) => statements.filter((s) => asList(s.Action).some((a) => String(a).startsWith('s3:')));

describe('the validate function', () => {
  it('gets exactly the prefix-scoped S3 access the gate needs', () => {
    expect(s3Statements(roleStatements(gate.stack.gate.validate.role))).toEqual([
      // quarantine/ too: copies are skipped when a HEAD of the target shows an earlier delivery made them.
      { Effect: 'Allow', Action: 's3:GetObject', Resource: ['staging/', 'published/', 'quarantine/', '_gate/'].map((p) => objectArn(bucket, p)) },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: ['published/', 'quarantine/', '_gate/'].map((p) => objectArn(bucket, p)) },
      // published/: a backfill removes the old _SUCCESS and the files the new drop no longer has;
      // quarantine/: a drop superseded part-way takes back its copies; of _gate/ only claims and leases, never a decision.
      { Effect: 'Allow', Action: 's3:DeleteObject', Resource: ['staging/', 'published/', 'quarantine/', '_gate/notices/', '_gate/leases/', '_gate/incoming/', '_gate/registry-pages/'].map((p) => objectArn(bucket, p)) },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: { 'Fn::GetAtt': [bucket, 'Arn'] },
        Condition: { StringLike: { 's3:prefix': ['staging/*', 'published/*', 'quarantine/*', '_gate/*'] } },
      },
      // The audit chain, which a killed release's next drop finishes: created only (the bucket policy denies the rest).
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: objectArn(bucket, '_audit/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [bucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': ['_audit/*'] } } },
    ]);
  });

  it('may publish to the topic, encrypt with its key, consume the ready queue and write its own logs', () => {
    const statements = roleStatements(gate.stack.gate.validate.role);
    expect(statements).toEqual(expect.arrayContaining([
      { Effect: 'Allow', Action: 'sns:Publish', Resource: { Ref: gate.logicalId(gate.stack.gate.notices.topic) } },
      { Effect: 'Allow', Action: ['kms:Decrypt', 'kms:GenerateDataKey*'], Resource: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.notices.key!), 'Arn'] } },
      expect.objectContaining({ Action: expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']), Resource: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.ready.queue), 'Arn'] } }),
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.validate.logGroup), 'Arn'] } },
    ]));
    expect(statements).toHaveLength(10);
  });
});

describe('the probe function', () => {
  it('reads every area but writes and deletes only its own claims under _gate/ (and writes since when it expects each contract)', () => {
    const claims = ['_gate/sla/', '_gate/sunset/', '_gate/abandoned/', '_gate/registry-pages/'].map((p) => objectArn(bucket, p));
    expect(s3Statements(roleStatements(gate.stack.gate.probe.role))).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: ['published/', 'staging/', 'quarantine/', '_gate/'].map((p) => objectArn(bucket, p)) },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: [...claims, objectArn(bucket, '_gate/expected/')] },
      { Effect: 'Allow', Action: 's3:DeleteObject', Resource: claims },
      {
        Effect: 'Allow',
        Action: 's3:ListBucket',
        Resource: { 'Fn::GetAtt': [bucket, 'Arn'] },
        Condition: { StringLike: { 's3:prefix': ['published/*', 'staging/*', 'quarantine/*', '_gate/*'] } },
      },
    ]);
  });

  it('may publish notices and write its own logs, nothing on the queue', () => {
    const statements = roleStatements(gate.stack.gate.probe.role);
    expect(statements).toEqual(expect.arrayContaining([
      { Effect: 'Allow', Action: 'sns:Publish', Resource: { Ref: gate.logicalId(gate.stack.gate.notices.topic) } },
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.probe.logGroup), 'Arn'] } },
    ]));
    expect(statements.some((s) => asList(s.Action).some((a) => String(a).startsWith('sqs:')))).toBe(false);
    expect(statements).toHaveLength(7);
  });
});

describe('the whole template', () => {
  it('allows no s3:* and no S3 action on every resource', () => {
    const allows = allStatements(gate.template).filter(({ statement }) => statement.Effect === 'Allow');
    expect(allows.length).toBeGreaterThan(10);
    for (const { resource, statement } of allows) {
      const actions = asList(statement.Action).map(String);
      expect(actions, resource).not.toContain('*');
      expect(actions.filter((a) => a.startsWith('s3:') && a.includes('*')), resource).toEqual([]);
      if (actions.some((a) => a.startsWith('s3:'))) expect(asList(statement.Resource), resource).not.toContain('*');
    }
  });

  it('attaches no managed policy to the gate functions\' roles', () => {
    for (const role of [gate.stack.gate.validate.role, gate.stack.gate.probe.role]) {
      expect(gate.template.toJSON().Resources[gate.logicalId(role)].Properties.ManagedPolicyArns).toBeUndefined();
    }
  });

  it('lets the notifications handler change the notification configuration of the gate bucket only', () => {
    const handlerPolicy = allStatements(gate.template).filter(({ statement }) => asList(statement.Action).includes('s3:PutBucketNotification'));
    expect(handlerPolicy.map((s) => s.statement)).toEqual([{ Effect: 'Allow', Action: 's3:PutBucketNotification', Resource: { 'Fn::GetAtt': [bucket, 'Arn'] } }]);
  });
});
