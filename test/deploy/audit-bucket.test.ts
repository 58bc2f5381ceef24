import { App, Duration, Stack } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';

interface Statement { Sid?: string; Effect: string; Principal?: unknown; Action: string | string[]; Resource: unknown; Condition?: unknown }

function bucketPolicy(template: Template): Statement[] {
  return Object.values(template.findResources('AWS::S3::BucketPolicy')).flatMap((p) => (p as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument.Statement);
}

const text = (value: unknown) => JSON.stringify(value);

describe("the owners' audit records on a gate's bucket", () => {
  let template: Template;
  beforeAll(() => {
    const stack = new Stack(new App(), 'DataLake');
    new ContractGate(stack, 'Gate');
    template = Template.fromStack(stack);
  });

  it('may only be created: a PUT or copy without If-None-Match under _audit/ is denied to everyone', () => {
    const created = bucketPolicy(template).find((s) => s.Sid === 'AuditRecordsAreOnlyCreated');
    expect(created).toMatchObject({ Effect: 'Deny', Principal: '*', Action: 's3:PutObject', Condition: { Null: { 's3:if-none-match': 'true' } } });
    expect(text(created?.Resource)).toContain('/_audit/*');
  });

  it('may not be deleted, nor a retention bypassed, by anyone', () => {
    const kept = bucketPolicy(template).find((s) => s.Sid === 'AuditRecordsAreNeverDeleted');
    expect(kept).toMatchObject({ Effect: 'Deny', Principal: '*', Action: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:BypassGovernanceRetention'] });
    expect(text(kept?.Resource)).toContain('/_audit/*');
    expect(kept?.Condition).toBeUndefined();
  });

  it('are expired by no lifecycle rule: no rule with an expiration has a prefix covering _audit/', () => {
    const buckets = template.findResources('AWS::S3::Bucket', { Properties: { VersioningConfiguration: { Status: 'Enabled' } } });
    const rules = Object.values(buckets).flatMap((b) => (b as { Properties: { LifecycleConfiguration: { Rules: { Id: string; Prefix?: string; ExpirationInDays?: number }[] } } }).Properties.LifecycleConfiguration.Rules);
    const expiring = rules.filter((rule) => rule.ExpirationInDays !== undefined);
    expect(expiring.map((rule) => rule.Prefix)).toEqual(['quarantine/', '_gate/', '_gate/runs/']);
    expect(expiring.every((rule) => rule.Prefix !== undefined && !'_audit/'.startsWith(rule.Prefix))).toBe(true);
  });

  it('are written only by the validate function, which finishes a killed release: no other role names _audit/', () => {
    const policies = Object.entries(template.findResources('AWS::IAM::Policy'));
    const naming = policies.filter(([, policy]) => text(policy).includes('_audit/')).map(([id]) => id);
    expect(naming.length).toBeGreaterThan(0);
    expect(naming.every((id) => /Validate|Decide/i.test(id))).toBe(true);
  });

  it('have no Object Lock unless asked for', () => {
    template.hasResourceProperties('AWS::S3::Bucket', { VersioningConfiguration: { Status: 'Enabled' }, ObjectLockEnabled: Match.absent(), ObjectLockConfiguration: Match.absent() });
  });
});

describe('ContractGate objectLock', () => {
  it('creates the bucket with Object Lock and the default retention asked for', () => {
    const stack = new Stack(new App(), 'Locked');
    new ContractGate(stack, 'Gate', { objectLock: { mode: 'compliance', retention: Duration.days(400) } });
    Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', {
      VersioningConfiguration: { Status: 'Enabled' },
      ObjectLockEnabled: true,
      ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', Rule: { DefaultRetention: { Mode: 'COMPLIANCE', Days: 400 } } },
    });
  });

  it('is governance for 365 days when only asked for', () => {
    const stack = new Stack(new App(), 'Governed');
    new ContractGate(stack, 'Gate', { objectLock: {} });
    Template.fromStack(stack).hasResourceProperties('AWS::S3::Bucket', { ObjectLockConfiguration: { Rule: { DefaultRetention: { Mode: 'GOVERNANCE', Days: 365 } } } });
  });

  it('is refused for an existing bucket, saying what its owner must do', () => {
    const stack = new Stack(new App(), 'Existing');
    expect(() => new ContractGate(stack, 'Gate', { bucket: Bucket.fromBucketName(stack, 'Lake', 'acme-lake'), fanout: { enabled: false }, objectLock: { mode: 'governance', retention: Duration.days(30) } })).toThrow(/objectLock: applies to a bucket the gate creates; .*put-object-lock-configuration/);
  });
});
