import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Match } from 'aws-cdk-lib/assertions';
import type { Role } from 'aws-cdk-lib/aws-iam';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentConfig } from '../../lib/deploy/environment-config.js';
import { nagFindings, reportedViolations } from './nag-findings.js';
import { asList, assetDirectory, handlerModule, objectArn, synthGate, TEST_ENVIRONMENTS, type GateSynth } from './synth-gate.js';

// `fan`: the dev environment with the fan-out on and non-default numbers, so each assertion
// proves the value came from the configuration.
// `still`: the dev environment with the fan-out switched off, which now takes saying so.
const ENVIRONMENTS = {
  ...TEST_ENVIRONMENTS,
  fan: { bucket: { create: true }, contracts: { source: 'bundled' }, fanout: { enabled: true, maxFiles: 50, maxBytes: 2 * 1024 ** 3, mapConcurrency: 25 } },
  still: { ...TEST_ENVIRONMENTS.dev, fanout: { enabled: false } },
};

let fan: GateSynth;
let off: GateSynth;

beforeAll(async () => {
  fan = await synthGate('fan', { environments: ENVIRONMENTS });
  off = await synthGate('still', { environments: ENVIRONMENTS });
});
afterAll(() => {
  fan?.dispose();
  off?.dispose();
});

/** The state machine's definition, its tokens replaced by their logical IDs so it parses as JSON. */
function definition(gate: GateSynth): { StartAt: string; States: Record<string, Record<string, unknown>>; TimeoutSeconds: number } {
  const [machine] = Object.values(gate.template.findResources('AWS::StepFunctions::StateMachine'));
  const parts = (machine!.Properties.DefinitionString as { 'Fn::Join': [string, unknown[]] })['Fn::Join'][1];
  return JSON.parse(parts.map((p) => (typeof p === 'string' ? p : `<${JSON.stringify(p).replace(/"/g, '')}>`)).join(''));
}

function s3Statements(gate: GateSynth, role: Role): unknown[] {
  const roleId = gate.logicalId(role);
  const policy = Object.values(gate.template.findResources('AWS::IAM::Policy')).find((p) => JSON.stringify(p.Properties.Roles) === JSON.stringify([{ Ref: roleId }]));
  return (policy!.Properties.PolicyDocument.Statement as { Action: unknown }[]).filter((s) => asList(s.Action).some((a) => String(a).startsWith('s3:')));
}

describe('the fan-out, enabled', () => {
  it('plans, checks every file in a Distributed Map over items.json, confirms duplicates shard by shard, then decides', () => {
    const { StartAt, States, TimeoutSeconds } = definition(fan);
    expect(StartAt).toBe('Plan');
    expect(States.AnythingToCheck).toMatchObject({ Type: 'Choice', Choices: [{ Variable: '$.skipToDecide', BooleanEquals: true, Next: 'Decide' }], Default: 'CheckFiles' });
    expect(States.CheckFiles).toMatchObject({
      Type: 'Map',
      MaxConcurrency: 25,
      ResultPath: null,
      ItemReader: { Resource: expect.stringContaining(':states:::s3:getObject'), ReaderConfig: { InputType: 'JSON' }, Parameters: { 'Bucket.$': '$.bucket', 'Key.$': '$.itemsKey' } },
      ItemSelector: { 'run.$': '$.run', 'item.$': '$$.Map.Item.Value' },
      ItemProcessor: { ProcessorConfig: { Mode: 'DISTRIBUTED', ExecutionType: 'STANDARD' }, StartAt: 'CheckFile' },
      Next: 'ConfirmDuplicates',
    });
    expect(States.ConfirmDuplicates).toMatchObject({ Type: 'Map', ItemsPath: '$.shards', MaxConcurrency: 25, ItemProcessor: { ProcessorConfig: { Mode: 'INLINE' }, StartAt: 'ReduceShard' }, Next: 'Decide' });
    expect(States.Decide).toMatchObject({ Type: 'Task', End: true, Parameters: { Payload: { 'run.$': '$.run' } } });
    expect(TimeoutSeconds).toBe(86_400);
  });

  it('retries every step, since every step is idempotent', () => {
    const { States } = definition(fan);
    const tasks = [States.Plan, States.Decide, (States.CheckFiles!.ItemProcessor as { States: Record<string, unknown> }).States.CheckFile, (States.ConfirmDuplicates!.ItemProcessor as { States: Record<string, unknown> }).States.ReduceShard];
    for (const task of tasks) expect(task).toMatchObject({ Retry: expect.arrayContaining([expect.objectContaining({ ErrorEquals: ['States.ALL'], MaxAttempts: 4 })]) });
  });

  it('logs every event of its executions and traces them', () => {
    fan.template.hasResourceProperties('AWS::StepFunctions::StateMachine', {
      StateMachineName: 'contract-gate-fan-fanout',
      StateMachineType: 'STANDARD',
      LoggingConfiguration: { Level: 'ALL', IncludeExecutionData: true, Destinations: [{ CloudWatchLogsLogGroup: { LogGroupArn: { 'Fn::GetAtt': [fan.logicalId(fan.stack.gate.fanout!.logGroup), 'Arn'] } } }] },
      TracingConfiguration: { Enabled: true },
    });
    fan.template.hasResourceProperties('AWS::Logs::LogGroup', { LogGroupName: '/aws/vendedlogs/states/contract-gate-fan-fanout', RetentionInDays: 30 });
  });

  it('starts on the creation of a requested.json under _gate/runs/, through EventBridge', () => {
    fan.template.hasResourceProperties('Custom::S3BucketNotifications', { NotificationConfiguration: Match.objectLike({ EventBridgeConfiguration: {} }) });
    fan.template.hasResourceProperties('AWS::Events::Rule', {
      Name: 'contract-gate-fan-fanout-requested',
      EventPattern: {
        source: ['aws.s3'],
        'detail-type': ['Object Created'],
        detail: { bucket: { name: [{ Ref: fan.logicalId(fan.stack.gate.gateBucket.bucket) }] }, object: { key: [{ wildcard: '_gate/runs/*/requested.json' }] } },
      },
      Targets: [Match.objectLike({
        Arn: { Ref: fan.logicalId(fan.stack.gate.fanout!.stateMachine) },
        InputTransformer: { InputPathsMap: { 'detail-bucket-name': '$.detail.bucket.name', 'detail-object-key': '$.detail.object.key' }, InputTemplate: '{"bucket":<detail-bucket-name>,"requestKey":<detail-object-key>}' },
      })],
    });
  });

  it('tells the validate function its limits, and the steps their bucket and layout', () => {
    fan.template.hasResourceProperties('AWS::Lambda::Function', {
      FunctionName: 'contract-gate-fan-validate',
      Environment: { Variables: Match.objectLike({ GATE_FANOUT_MAX_FILES: '50', GATE_FANOUT_MAX_BYTES: String(2 * 1024 ** 3), GATE_FANOUT_CHECK_SECONDS: '270' }) },
    });
    for (const step of ['plan', 'map-file', 'reduce-shard', 'decide']) {
      fan.template.hasResourceProperties('AWS::Lambda::Function', {
        FunctionName: `contract-gate-fan-fanout-${step}`,
        Runtime: 'nodejs22.x',
        Environment: { Variables: Match.objectLike({ GATE_BUCKET: { Ref: fan.logicalId(fan.stack.gate.gateBucket.bucket) }, GATE_STATE_PREFIX: '_gate/' }) },
      });
    }
  });

  it('gives each step only the prefixes it touches, and no step but decide any delete', () => {
    const bucket = fan.logicalId(fan.stack.gate.gateBucket.bucket);
    const list = (prefixes: string[]) => ({ Effect: 'Allow', Action: 's3:ListBucket', Resource: { 'Fn::GetAtt': [bucket, 'Arn'] }, Condition: { StringLike: { 's3:prefix': prefixes.map((p) => `${p}*`) } } });
    const { functions, stateMachine } = fan.stack.gate.fanout!;
    expect(s3Statements(fan, functions.mapFile.role)).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: ['staging/', '_gate/decisions/'].map((p) => objectArn(bucket, p)) },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: objectArn(bucket, '_gate/runs/') },
      list(['_gate/decisions/', 'staging/']),
    ]);
    expect(s3Statements(fan, functions.plan.role)).toEqual([
      { Effect: 'Allow', Action: 's3:GetObject', Resource: ['_gate/runs/', '_gate/decisions/', 'staging/'].map((p) => objectArn(bucket, p)) },
      { Effect: 'Allow', Action: 's3:PutObject', Resource: objectArn(bucket, '_gate/runs/') },
      list(['_gate/runs/', '_gate/decisions/', 'staging/']),
    ]);
    expect(s3Statements(fan, functions.reduceShard.role)).toHaveLength(3);
    expect(s3Statements(fan, functions.decide.role)).toEqual(s3Statements(fan, fan.stack.gate.validate.role));
    expect(s3Statements(fan, stateMachine.role as Role)).toEqual([{ Effect: 'Allow', Action: 's3:GetObject', Resource: objectArn(bucket, '_gate/runs/') }]);
  });

  it('pages when a run fails, times out or cannot start', () => {
    for (const name of ['fanout-failed', 'fanout-timed-out', 'fanout-not-started']) {
      fan.template.hasResourceProperties('AWS::CloudWatch::Alarm', { AlarmName: `contract-gate-fan-${name}`, AlarmActions: [{ Ref: fan.logicalId(fan.stack.gate.notices.topic) }], Threshold: 1 });
    }
  });

  it('expires the runs\' scratch records after a week', () => {
    fan.template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: Match.arrayWith([{ Id: 'expire-fanout-runs', Prefix: '_gate/runs/', ExpirationInDays: 7, Status: 'Enabled' }]) },
    });
  });

  it('passes the cdk-nag AwsSolutions checks', () => {
    expect(nagFindings(fan.stack)).toEqual([]);
    expect(reportedViolations(fan)).toEqual([]);
  });

  it('bundles each step as an ESM file that loads with no node_modules in reach', () => {
    for (const step of fan.stack.gate.fanout!.functions.all) {
      const dir = assetDirectory(fan, fan.logicalId(step.function));
      const file = handlerModule(fan, fan.logicalId(step.function));
      expect(readdirSync(dir)).toEqual(expect.arrayContaining(['contracts', file]));
      const script = `const m = await import(${JSON.stringify(pathToFileURL(join(dir, file)).href)}); console.log(typeof m.handler);`;
      expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH } }).trim()).toBe('function');
    }
  });
});

describe('the fan-out, switched off', () => {
  it('adds no state machine, rule, EventBridge notification or limits', () => {
    expect(off.stack.gate.fanout).toBeUndefined();
    off.template.resourceCountIs('AWS::StepFunctions::StateMachine', 0);
    expect(Object.values(off.template.findResources('AWS::Events::Rule')).map((r) => r.Properties.Name)).toEqual(['contract-gate-still-probe']);
    const [notifications] = Object.values(off.template.findResources('Custom::S3BucketNotifications'));
    expect(notifications!.Properties.NotificationConfiguration.EventBridgeConfiguration).toBeUndefined();
    const validate = off.template.toJSON().Resources[off.logicalId(off.stack.gate.validate.function)].Properties.Environment.Variables;
    expect(Object.keys(validate).filter((k) => k.startsWith('GATE_FANOUT'))).toEqual([]);
  });
});

describe('environmentConfig: fanout', () => {
  it('is on without the section, with limits derived from the validate function\'s timeout and memory; explicit limits win', () => {
    const derived = { enabled: true, maxFiles: 200, maxBytes: 2_160_000_000, mapConcurrency: 40 };
    expect(environmentConfig({ dev: {} }, 'dev').fanout).toEqual(derived);
    expect(environmentConfig({ dev: { fanout: {} } }, 'dev').fanout).toEqual(derived);
    expect(environmentConfig({ dev: { fanout: { enabled: false } } }, 'dev').fanout).toEqual({ ...derived, enabled: false });
    // At 600 s time would allow 4.56 GB; the memory of 1,769 MB bounds it first. More memory lifts that bound.
    expect(environmentConfig({ dev: { validateTimeoutSeconds: 600 } }, 'dev').fanout.maxBytes).toBe(3_172_829_656);
    expect(environmentConfig({ dev: { validateTimeoutSeconds: 600, validateMemoryMb: 3538 } }, 'dev').fanout.maxBytes).toBe(4_560_000_000);
    expect(environmentConfig({ dev: { fanout: { maxFiles: 50, maxBytes: 4 * 1024 ** 3 } } }, 'dev').fanout).toEqual({ ...derived, maxFiles: 50, maxBytes: 4 * 1024 ** 3 });
  });

  it('lists the section\'s problems with the others', () => {
    expect(() => environmentConfig({ x: { fanout: { enabled: 'yes', maxFiles: 0, mapConcurrency: 20_000, maxFile: 3 }, probeIntervalMinutes: 0 } }, 'x')).toThrow([
      'cdk.json context "environments.x" is invalid:',
      '  - probeIntervalMinutes: expected an integer from 1 to 1440, got 0',
      '  - fanout.maxFile: unknown key (did you mean "maxFiles"?); known keys: enabled, maxFiles, maxBytes, mapConcurrency, bucketEventBridge',
      '  - fanout.enabled: expected true or false, got "yes"',
      '  - fanout.maxFiles: expected an integer from 1 to 1000000, got 0',
      '  - fanout.mapConcurrency: expected an integer from 1 to 10000, got 20000',
    ].join('\n'));
  });
});
