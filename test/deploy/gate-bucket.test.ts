import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { GateBucket } from '../../lib/deploy/gate-bucket.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';

function gateBucket(registryPrefix?: string): { template: Template; bucket: string } {
  const stack = new Stack(new App(), 'Gate');
  stack.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
  const created = new GateBucket(stack, 'Gate', { create: { noncurrentVersionRetention: Duration.days(1) }, prefixes: DEFAULT_LAYOUT, marker: '_READY', ...(registryPrefix ? { registryPrefix } : {}) });
  return { template: Template.fromStack(stack), bucket: stack.getLogicalId(created.bucket.node.defaultChild as never) };
}

const WRITE_ONCE = 'RegisteredContractVersionsAreWriteOnce';

describe('the gate bucket with a contract registry', () => {
  it('denies anyone a PutObject of a registered version or its migration document without If-None-Match, so neither is ever rewritten', () => {
    const { template, bucket } = gateBucket('_contracts/');
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucket },
      PolicyDocument: {
        Statement: Match.arrayWith([{
          Sid: WRITE_ONCE,
          Effect: 'Deny',
          Principal: '*',
          Action: 's3:PutObject',
          Resource: [
            { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/_contracts/*.yaml']] },
            { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucket, 'Arn'] }, '/_contracts/*.migration.md']] },
          ],
          Condition: { Null: { 's3:if-none-match': 'true' } },
        }]),
      },
    });
  });

  it('says nothing of versions when the gate ships with bundled contracts', () => {
    const { template } = gateBucket();
    const statements = Object.values(template.findResources('AWS::S3::BucketPolicy')).flatMap((r) => (r as { Properties: { PolicyDocument: { Statement: { Sid?: string }[] } } }).Properties.PolicyDocument.Statement);
    expect(statements.map((s) => s.Sid)).not.toContain(WRITE_ONCE);
  });
});
