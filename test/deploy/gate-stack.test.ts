import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsContract, repositoryContracts, synthGate, type GateSynth } from './synth-gate.js';

// prod in TEST_ENVIRONMENTS: a named, created bucket and non-default numbers everywhere, so each
// assertion proves the value came from the configuration.
let gate: GateSynth;
let ids: { bucket: string; queue: string; dlq: string; topic: string; key: string; validate: string; probe: string };

beforeAll(async () => {
  gate = await synthGate('prod', { contracts: [...(await repositoryContracts()), paymentsContract()] });
  const { stack } = gate;
  ids = {
    bucket: gate.logicalId(stack.gate.gateBucket.bucket),
    queue: gate.logicalId(stack.gate.ready.queue),
    dlq: gate.logicalId(stack.gate.ready.deadLetterQueue),
    topic: gate.logicalId(stack.gate.notices.topic),
    key: gate.logicalId(stack.gate.notices.key!),
    validate: gate.logicalId(stack.gate.validate.function),
    probe: gate.logicalId(stack.gate.probe.function),
  };
});
afterAll(() => gate?.dispose());

describe('the gate bucket', () => {
  it('is private, encrypted, versioned, and logs access to a separate bucket', () => {
    gate.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: 'acme-contract-gate-prod',
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      VersioningConfiguration: { Status: 'Enabled' },
      OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
      LoggingConfiguration: { DestinationBucketName: { Ref: gate.logicalId(gate.stack.gate.gateBucket.accessLogs!) }, LogFilePrefix: 'gate-bucket/' },
    });
  });

  it('expires quarantine and gate state by prefix, old versions, and old versions of staged files after a day', () => {
    gate.template.hasResourceProperties('AWS::S3::Bucket', {
      BucketName: 'acme-contract-gate-prod',
      LifecycleConfiguration: {
        Rules: [
          { Id: 'expire-quarantine', Prefix: 'quarantine/', ExpirationInDays: 120, Status: 'Enabled' },
          { Id: 'expire-gate-state', Prefix: '_gate/', ExpirationInDays: 45, Status: 'Enabled' },
          { Id: 'expire-noncurrent-staging', Prefix: 'staging/', NoncurrentVersionExpiration: { NoncurrentDays: 1 }, Status: 'Enabled' },
          Match.objectLike({ Id: 'expire-noncurrent-versions', NoncurrentVersionExpiration: { NoncurrentDays: 14 }, ExpiredObjectDeleteMarker: true }),
          // The fan-out is on by default: its run records are scratch (lib/deploy/fanout-state-machine.ts).
          { Id: 'expire-fanout-runs', Prefix: '_gate/runs/', ExpirationInDays: 7, Status: 'Enabled' },
        ],
      },
    });
  });

  it('denies requests without TLS in its bucket policy', () => {
    gate.template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: ids.bucket },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Action: 's3:*', Principal: { AWS: '*' }, Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  });

  it('sends the object-created events of completion markers under staging/ to the ready queue', () => {
    gate.template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: ids.bucket },
      Managed: true,
      NotificationConfiguration: {
        QueueConfigurations: [
          {
            Events: ['s3:ObjectCreated:*'],
            Filter: { Key: { FilterRules: Match.arrayEquals([{ Name: 'suffix', Value: '/_READY' }, { Name: 'prefix', Value: 'staging/' }]) } },
            QueueArn: { 'Fn::GetAtt': [ids.queue, 'Arn'] },
          },
        ],
      },
    });
  });
});

describe('the ready queue', () => {
  it('is encrypted, TLS-only, hides a message one function timeout and a minute long, and dead-letters after 10 receives', () => {
    gate.template.hasResourceProperties('AWS::SQS::Queue', {
      QueueName: 'contract-gate-prod-ready',
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 660,
      RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [ids.dlq, 'Arn'] }, maxReceiveCount: 10 },
    });
    gate.template.hasResourceProperties('AWS::SQS::Queue', { QueueName: 'contract-gate-prod-ready-dlq', SqsManagedSseEnabled: true, MessageRetentionPeriod: 14 * 24 * 3600 });
    for (const queue of [ids.queue, ids.dlq]) {
      gate.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: queue }],
        PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
      });
    }
  });

  it('lets only the gate bucket send to it', () => {
    gate.template.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: ids.queue }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 's3.amazonaws.com' }, Condition: { ArnLike: { 'aws:SourceArn': { 'Fn::GetAtt': [ids.bucket, 'Arn'] } } } }),
        ]),
      },
    });
  });

  it('feeds the validate function one marker at a time, reporting partial failures, at bounded concurrency', () => {
    gate.template.resourceCountIs('AWS::Lambda::EventSourceMapping', 1);
    gate.template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [ids.queue, 'Arn'] },
      FunctionName: { Ref: ids.validate },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: 20 },
    });
  });
});

describe('the functions', () => {
  const gateEnvironment = (topic: string, bucket: string) => ({
    GATE_BUCKET: { Ref: bucket },
    GATE_TOPIC_ARN: { Ref: topic },
    GATE_STAGING_PREFIX: 'staging/',
    GATE_PUBLISHED_PREFIX: 'published/',
    GATE_QUARANTINE_PREFIX: 'quarantine/',
    GATE_STATE_PREFIX: '_gate/',
    GATE_MARKER: '_READY',
  });

  it('runs validate on Node.js 22, arm64, with the configured memory and timeout, logging JSON', () => {
    gate.template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'contract-gate-prod-validate',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Handler: 'validate.handler',
      MemorySize: 3008,
      Timeout: 600,
      Environment: { Variables: gateEnvironment(ids.topic, ids.bucket) },
      LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: gate.logicalId(gate.stack.gate.validate.logGroup) } },
    });
  });

  it('runs the probe the same way', () => {
    gate.template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'contract-gate-prod-probe',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      Environment: { Variables: gateEnvironment(ids.topic, ids.bucket) },
      LoggingConfig: { LogFormat: 'JSON', LogGroup: { Ref: gate.logicalId(gate.stack.gate.probe.logGroup) } },
    });
  });

  it('keeps each function\'s logs for the configured days', () => {
    for (const fn of ['validate', 'probe']) {
      gate.template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: `/aws/lambda/contract-gate-prod-${fn}`, RetentionInDays: 90 });
    }
  });

  it('runs the probe on the configured schedule', () => {
    gate.template.hasResourceProperties('AWS::Events::Rule', {
      Name: 'contract-gate-prod-probe',
      ScheduleExpression: 'rate(10 minutes)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [ids.probe, 'Arn'] } })],
    });
  });
});

describe('notices', () => {
  it('go to one topic, encrypted with a rotating key of its own, TLS only', () => {
    gate.template.resourceCountIs('AWS::SNS::Topic', 1);
    gate.template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'contract-gate-prod-notices', KmsMasterKeyId: { 'Fn::GetAtt': [ids.key, 'Arn'] } });
    gate.template.hasResourceProperties('AWS::KMS::Key', { EnableKeyRotation: true });
    gate.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('let CloudWatch alarms use the topic key', () => {
    gate.template.hasResourceProperties('AWS::KMS::Key', {
      KeyPolicy: { Statement: Match.arrayWith([Match.objectLike({ Principal: { Service: 'cloudwatch.amazonaws.com' }, Action: ['kms:Decrypt', 'kms:GenerateDataKey*'] })]) },
    });
  });

  it('reach each owner filtered to their contracts, and the alert addresses unfiltered', () => {
    const subscriptions = gate.template.findResources('AWS::SNS::Subscription');
    const byEndpoint = Object.fromEntries(Object.values(subscriptions).map((s) => [s.Properties.Endpoint, s.Properties]));
    expect(Object.keys(byEndpoint).sort()).toEqual(['data-oncall@example.com', 'orders-oncall@example.com', 'payments-team@example.com', 'shared-analytics@example.com']);
    for (const props of Object.values(byEndpoint)) expect(props).toMatchObject({ Protocol: 'email', TopicArn: { Ref: ids.topic } });
    expect(byEndpoint['payments-team@example.com'].FilterPolicy).toEqual({ contract: ['payments'] });
    expect(byEndpoint['shared-analytics@example.com'].FilterPolicy).toEqual({ contract: ['payments'] });
    // An alert address that also owns a contract hears everything through its one subscription.
    expect(byEndpoint['orders-oncall@example.com'].FilterPolicy).toBeUndefined();
    expect(byEndpoint['data-oncall@example.com'].FilterPolicy).toBeUndefined();
  });
});

describe('alarms', () => {
  const alarm = (name: string, props: object) =>
    gate.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: `contract-gate-prod-${name}`,
      AlarmActions: [{ Ref: ids.topic }],
      OKActions: [{ Ref: ids.topic }],
      EvaluationPeriods: 1,
      ...props,
    });

  it('page when a marker lands in the dead-letter queue', () => {
    alarm('dead-letters', {
      Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.dlq, 'QueueName'] } }],
    });
  });

  it('page on any error of either function', () => {
    for (const [name, id] of [['validate-errors', ids.validate], ['probe-errors', ids.probe]] as const) {
      alarm(name, { Namespace: 'AWS/Lambda', MetricName: 'Errors', Statistic: 'Sum', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Dimensions: [{ Name: 'FunctionName', Value: { Ref: id } }] });
    }
  });

  it('page on a marker the validate function reports as a failed batch item', () => {
    gate.template.hasResourceProperties('AWS::Logs::MetricFilter', {
      LogGroupName: { Ref: gate.logicalId(gate.stack.gate.validate.logGroup) },
      FilterPattern: '{ $.level = "ERROR" }',
      MetricTransformations: [{ MetricNamespace: 'ContractGate', MetricName: 'MarkerFailures', MetricValue: '1', Dimensions: [{ Key: 'service', Value: '$.service' }, { Key: 'Gate', Value: '$.gate' }] }],
    });
    alarm('marker-failures', { Namespace: 'ContractGate', MetricName: 'MarkerFailures', Dimensions: [{ Name: 'Gate', Value: 'prod' }, { Name: 'service', Value: 'contract-gate' }], Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
  });

  it('page when the oldest ready message is older than the configured age', () => {
    alarm('ready-queue-age', {
      Namespace: 'AWS/SQS', MetricName: 'ApproximateAgeOfOldestMessage', Statistic: 'Maximum', Threshold: 90 * 60, ComparisonOperator: 'GreaterThanThreshold',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [ids.queue, 'QueueName'] } }],
    });
  });
});

describe('bundled contracts (contracts.source "bundled")', () => {
  it('add no reconcile function, registry trigger, registry grant or registry variable', () => {
    expect(gate.stack.gate.reconcile).toBeUndefined();
    expect(gate.stack.gate.gateBucket.registryPrefix).toBeUndefined();
    const [notifications] = Object.values(gate.template.findResources('Custom::S3BucketNotifications'));
    expect(notifications!.Properties.NotificationConfiguration.LambdaFunctionConfigurations).toBeUndefined();
    // The fan-out's rule starts runs from the bucket's own events; no registry trigger among them.
    expect(Object.values(gate.template.findResources('AWS::Events::Rule')).map((r) => r.Properties.Name).sort()).toEqual(['contract-gate-prod-fanout-requested', 'contract-gate-prod-probe']);
    const text = JSON.stringify(gate.template.toJSON());
    for (const absent of ['_contracts/', 'GATE_CONTRACTS_SOURCE', 'GATE_REGISTRY_PREFIX', 'sns:Subscribe', 'subscriptions.json']) expect(text).not.toContain(absent);
  });
});

describe('names', () => {
  it('carry the environment in the stack and every named resource', () => {
    expect(gate.stack.stackName).toBe('ContractGate-prod');
    const nameKeys = ['FunctionName', 'QueueName', 'TopicName', 'AlarmName', 'LogGroupName', 'AliasName', 'Name'];
    const names = Object.values(gate.template.toJSON().Resources as Record<string, { Properties?: Record<string, unknown> }>).flatMap((r) =>
      nameKeys.map((k) => r.Properties?.[k]).filter((v): v is string => typeof v === 'string'),
    );
    expect(names.length).toBeGreaterThanOrEqual(14);
    for (const name of names) expect(name).toContain('contract-gate-prod');
  });
});
