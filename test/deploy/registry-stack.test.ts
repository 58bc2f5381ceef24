import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { pathToFileURL } from 'node:url';
import { App, Duration, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantPublishContract } from '../../lib/deploy/dataset-grants.js';
import { GateBucket } from '../../lib/deploy/gate-bucket.js';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { startLoopbackSnsTopic } from '../fixtures/loopback-sns-topic.js';
import { BUCKET, startEmulatorFixture } from '../local/emulator-fixture.js';
import { acknowledgements, nagFindings, reportedViolations } from './nag-findings.js';
import { allStatements, asList, assetDirectory, objectArn, paymentsContract, repositoryContracts, synthGate, type GateSynth } from './synth-gate.js';

// `reg` in TEST_ENVIRONMENTS: contracts from the registry under `registry/`, refreshed every 30
// s, the fan-out on. The repository's contracts are passed anyway, to show they are not used.
let gate: GateSynth;
let ids: { bucket: string; topic: string; reconcile: string };

beforeAll(async () => {
  gate = await synthGate('reg', { contracts: [...(await repositoryContracts()), paymentsContract()] });
  ids = { bucket: gate.logicalId(gate.stack.gate.gateBucket.bucket), topic: gate.logicalId(gate.stack.gate.notices.topic), reconcile: gate.logicalId(gate.stack.gate.reconcile!.function) };
});
afterAll(() => gate?.dispose());

function roleStatements(role: { node: { defaultChild?: unknown } }): Record<string, unknown>[] {
  const roleId = gate.logicalId(role);
  return allStatements(gate.template).filter(({ type, resource }) => type === 'AWS::IAM::Policy' && JSON.stringify(gate.template.toJSON().Resources[resource].Properties.Roles) === JSON.stringify([{ Ref: roleId }])).map((s) => s.statement);
}

const registryRead = (bucket: string) => [
  { Effect: 'Allow', Action: 's3:GetObject', Resource: objectArn(bucket, 'registry/') },
  { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [bucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': ['registry/*'] } } },
];

describe('the reconcile function', () => {
  it('runs one at a time on Node.js 22, told the bucket, the registry, the state prefix and the topic', () => {
    gate.template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'contract-gate-reg-reconcile',
      Runtime: 'nodejs22.x',
      Architectures: ['arm64'],
      ReservedConcurrentExecutions: 1,
      Environment: {
        Variables: { GATE_BUCKET: { Ref: ids.bucket }, GATE_REGISTRY_PREFIX: 'registry/', GATE_STATE_PREFIX: '_gate/', GATE_TOPIC_ARN: { Ref: ids.topic } },
      },
    });
  });

  it('runs on every pointer write under the registry prefix, beside the ready-queue notification', () => {
    gate.template.hasResourceProperties('Custom::S3BucketNotifications', {
      BucketName: { Ref: ids.bucket },
      NotificationConfiguration: Match.objectLike({
        QueueConfigurations: [Match.objectLike({ Filter: { Key: { FilterRules: Match.arrayEquals([{ Name: 'suffix', Value: '/_READY' }, { Name: 'prefix', Value: 'staging/' }]) } } })],
        LambdaFunctionConfigurations: [{
          Events: ['s3:ObjectCreated:*'],
          Filter: { Key: { FilterRules: Match.arrayEquals([{ Name: 'suffix', Value: '/current.json' }, { Name: 'prefix', Value: 'registry/' }]) } },
          LambdaFunctionArn: { 'Fn::GetAtt': [ids.reconcile, 'Arn'] },
        }],
      }),
    });
    gate.template.hasResourceProperties('AWS::Lambda::Permission', {
      Action: 'lambda:InvokeFunction',
      FunctionName: { 'Fn::GetAtt': [ids.reconcile, 'Arn'] },
      Principal: 's3.amazonaws.com',
      SourceArn: { 'Fn::GetAtt': [ids.bucket, 'Arn'] },
    });
  });

  it('also runs hourly, to catch up on a lost event', () => {
    gate.template.hasResourceProperties('AWS::Events::Rule', {
      Name: 'contract-gate-reg-reconcile',
      ScheduleExpression: 'rate(1 hour)',
      State: 'ENABLED',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [ids.reconcile, 'Arn'] } })],
    });
  });

  it('may manage subscriptions of the topic only, read the registry, read and write its one record, and send failed events to its dead-letter queue', () => {
    const statements = roleStatements(gate.stack.gate.reconcile!.role);
    expect(statements).toEqual([
      { Effect: 'Allow', Action: ['logs:CreateLogStream', 'logs:PutLogEvents'], Resource: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.reconcile!.logGroup), 'Arn'] } },
      // Its asynchronous invocations' on-failure destination.
      { Effect: 'Allow', Action: ['sqs:SendMessage', 'sqs:GetQueueAttributes', 'sqs:GetQueueUrl'], Resource: { 'Fn::GetAtt': [gate.logicalId(gate.stack.gate.reconcile!.deadLetterQueue.queue), 'Arn'] } },
      { Effect: 'Allow', Action: 's3:GetObject', Resource: objectArn(ids.bucket, 'registry/') },
      { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [ids.bucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': ['registry/*', '_gate/subscriptions.json'] } } },
      { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: { 'Fn::Join': ['', [{ 'Fn::GetAtt': [ids.bucket, 'Arn'] }, '/_gate/subscriptions.json']] } },
      { Effect: 'Allow', Action: ['sns:ListSubscriptionsByTopic', 'sns:Subscribe', 'sns:SetSubscriptionAttributes', 'sns:Unsubscribe'], Resource: { Ref: ids.topic } },
    ]);
  });

  it('pages when it fails', () => {
    gate.template.hasResourceProperties('AWS::CloudWatch::Alarm', {
      AlarmName: 'contract-gate-reg-reconcile-errors',
      MetricName: 'Errors',
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: ids.reconcile } }],
      AlarmActions: [{ Ref: ids.topic }],
    });
  });
});

describe('the functions that read contracts', () => {
  const readers = () => [gate.stack.gate.validate, gate.stack.gate.probe, ...gate.stack.gate.fanout!.functions.all];

  it('are told to read the registry, where, and how often to look again', () => {
    for (const fn of readers()) {
      const variables = gate.template.toJSON().Resources[gate.logicalId(fn.function)].Properties.Environment.Variables;
      expect(variables, fn.node.path).toMatchObject({ GATE_CONTRACTS_SOURCE: 'registry', GATE_REGISTRY_PREFIX: 'registry/', GATE_CONTRACTS_REFRESH_SECONDS: '30' });
    }
  });

  it('may read and list the registry, and write nothing there', () => {
    for (const fn of readers()) {
      const statements = roleStatements(fn.role);
      expect(statements, fn.node.path).toEqual(expect.arrayContaining(registryRead(ids.bucket)));
      const writes = statements.filter((s) => asList(s.Action).some((a) => a === 's3:PutObject' || a === 's3:DeleteObject'));
      expect(JSON.stringify(writes), fn.node.path).not.toContain('registry/');
    }
  });

  it('ship without contracts, and the reconcile bundle loads on its own', () => {
    for (const fn of [...readers(), gate.stack.gate.reconcile!]) {
      expect(readdirSync(assetDirectory(gate, gate.logicalId(fn.function))), fn.node.path).not.toContain('contracts');
    }
    const dir = assetDirectory(gate, ids.reconcile);
    expect(readdirSync(dir)).toContain('reconcile.mjs');
    const script = `const m = await import(${JSON.stringify(pathToFileURL(join(dir, 'reconcile.mjs')).href)}); console.log(typeof m.handler);`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } }).trim()).toBe('function');
  });
});

describe('the bundled reconcile function', () => {
  it('subscribes a registered contract\'s owner, configured only by the environment the stack sets', async () => {
    const s3 = await startEmulatorFixture();
    const sns = await startLoopbackSnsTopic();
    try {
      const store = s3ObjectStore({ client: s3.client, bucket: BUCKET });
      await registerContract(store, { path: 'contracts/orders.v1.yaml', text: readFileSync(join(PROJECT_ROOT, 'contracts/orders.v1.yaml'), 'utf8') }, { prefix: 'registry/', now: Date.now() });
      // Copied out of the project, as on Lambda: nothing but the bundle.
      const task = mkdtempSync(join(tmpdir(), 'cg-reconcile-task-'));
      cpSync(assetDirectory(gate, ids.reconcile), task, { recursive: true });
      writeFileSync(join(task, 'invoke.mjs'), "import { handler } from './reconcile.mjs';\nconsole.log(JSON.stringify(await handler({ Records: [] })));\n");
      const variables = gate.template.toJSON().Resources[ids.reconcile].Properties.Environment.Variables as Record<string, unknown>;
      const env = {
        PATH: process.env.PATH, GATE_REGISTRY_PREFIX: String(variables.GATE_REGISTRY_PREFIX), GATE_STATE_PREFIX: String(variables.GATE_STATE_PREFIX),
        GATE_BUCKET: BUCKET, GATE_TOPIC_ARN: sns.topicArn, AWS_ENDPOINT_URL_S3: s3.emulator.endpoint, AWS_ENDPOINT_URL_SNS: sns.endpoint,
        AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'secret', AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      };
      const { stdout } = await promisify(execFile)(process.execPath, ['invoke.mjs'], { cwd: task, env });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ changed: 1, failed: 0 });
      expect(sns.subscriptions()).toEqual([expect.objectContaining({ endpoint: 'orders-oncall@example.com', filterPolicy: '{"contract":["orders"]}', pending: true })]);
      expect((await s3.listAll('_gate/')).keys).toEqual(['_gate/subscriptions.json']);
    } finally {
      await sns.stop();
      await s3.close();
    }
  });
});

describe('synth-time subscriptions', () => {
  it('are the alert addresses only, unfiltered: owners are the reconcile function\'s', () => {
    const subscriptions = Object.values(gate.template.findResources('AWS::SNS::Subscription')).map((s) => s.Properties);
    expect(subscriptions.map((s) => s.Endpoint).sort()).toEqual(['gate-alerts@example.com', 'orders-oncall@example.com']);
    for (const s of subscriptions) expect(s.FilterPolicy).toBeUndefined();
  });
});

describe('cdk-nag AwsSolutions, with the registry', () => {
  it('finds nothing unacknowledged, and acknowledges for the reconcile function only its runtime and the registry prefix', () => {
    expect(nagFindings(gate.stack)).toEqual([]);
    expect(reportedViolations(gate)).toEqual([]);
    const reconcile = acknowledgements(gate.app).filter((a) => a.path.includes('/Reconcile/')).map((a) => `${a.path.replace(/^ContractGate-reg\/(Default\/)?/, '')}: ${a.id}`);
    expect(reconcile.sort()).toEqual(['Reconcile/DeadLetters/Queue: AwsSolutions-SQS3', 'Reconcile/Function: AwsSolutions-L1', `Reconcile/Role: AwsSolutions-IAM5[Resource::<${ids.bucket}.Arn>/registry/*]`]);
  });
});

describe('grantPublishContract', () => {
  function registryBucket(registryPrefix?: string): { stack: Stack; gateBucket: GateBucket; role: Role } {
    const stack = new Stack(new App(), 'Producer');
    // As GateStack pins it: access logs under a bucket policy.
    stack.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const gateBucket = new GateBucket(stack, 'Gate', { create: { noncurrentVersionRetention: Duration.days(1) }, prefixes: DEFAULT_LAYOUT, marker: '_READY', ...(registryPrefix ? { registryPrefix } : {}) });
    return { stack, gateBucket, role: new Role(stack, 'OrdersCi', { assumedBy: new ServicePrincipal('codebuild.amazonaws.com') }) };
  }

  it('lets a producer read, write and list its own dataset\'s prefix of the registry, nothing else', () => {
    const { stack, gateBucket, role } = registryBucket('_contracts/');
    grantPublishContract(gateBucket, role, 'orders');
    const bucket = stack.getLogicalId(gateBucket.bucket.node.defaultChild as never);
    Template.fromStack(stack).hasResourceProperties('AWS::IAM::Policy', {
      Roles: [{ Ref: stack.getLogicalId(role.node.defaultChild as never) }],
      PolicyDocument: {
        Statement: [
          { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: objectArn(bucket, '_contracts/orders/') },
          { Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [bucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': ['_contracts/orders/*'] } } },
        ],
      },
    });
  });

  it('refuses a name that would widen the grant, and a gate without a registry', () => {
    const { gateBucket, role } = registryBucket('_contracts/');
    for (const name of ['*', 'orders/*', 'Orders', '']) expect(() => grantPublishContract(gateBucket, role, name), name).toThrow('is not a dataset name');
    expect(() => grantPublishContract(registryBucket().gateBucket, role, 'orders')).toThrow('this gate ships with bundled contracts');
  });
});
