import { Aws, Duration, Fn, Validations } from 'aws-cdk-lib';
import { EventField, Match, Rule, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { SfnStateMachine } from 'aws-cdk-lib/aws-events-targets';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction, IFunction } from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import {
  Choice, Condition, DefinitionBody, DistributedMap, JsonPath, LogLevel, Map as MapState, S3JsonItemReader, StateMachine, StateMachineType, TaskInput,
} from 'aws-cdk-lib/aws-stepfunctions';
import { LambdaInvoke } from 'aws-cdk-lib/aws-stepfunctions-tasks';
import { Construct } from 'constructs';
import { checkSecondsFor } from '../fanout/fanout-limits.js';
import type { FanoutConfig } from './environment-config.js';
import { FanoutAlarms } from './fanout-alarms.js';
import { fanoutPrefix } from './fanout-grants.js';
import { FanoutFunctions } from './fanout-functions.js';
import type { GateBucket } from './gate-bucket.js';
import type { GateTopic } from './gate-topic.js';
import { acknowledgeWildcardResources } from './nag-acknowledgements.js';
import { TargetDeadLetterQueue } from './target-dead-letter-queue.js';

export interface FanoutStateMachineProps {
  /** Resource names start with this, e.g. `contract-gate-prod`. */
  readonly namePrefix: string;
  readonly gateBucket: GateBucket;
  readonly notices: GateTopic;
  readonly config: FanoutConfig;
  readonly logRetention: RetentionDays;
  /** Of the map and reduce functions: the validate function's. */
  readonly memorySize: number;
  readonly timeout: Duration;
  /** When contracts come from the registry. @default bundled contracts */
  readonly registry?: { readonly refreshSeconds: number };
  /** The contract files to bundle (their paths). @default the `*.yaml` and `*.yml` in `<projectRoot>/contracts` */
  readonly contractFiles?: readonly string[];
  /**
   * The fan-out's alarms: physical names only with a `namePrefix`, and where they go.
   * @default named after `namePrefix`, to the notices topic
   */
  readonly alarms?: { readonly namePrefix?: string; readonly actions: readonly IAlarmAction[] };
}

// The inline Map of the reduce runs at most 40 iterations at once, whatever it is asked.
const INLINE_MAP_MAX_CONCURRENCY = 40;
// Run records are scratch once decided; the decision and notice records keep the state retention.
const RUN_RETENTION = Duration.days(7);

/**
 * Big partitions past one function: the validate function writes `_gate/runs/.../requested.json`,
 * its creation (S3 to EventBridge) starts this state machine, which plans, checks every file in a
 * Distributed Map, confirms repeated keys shard by shard, then decides as the validate function does.
 */
export class FanoutStateMachine extends Construct {
  readonly functions: FanoutFunctions;
  readonly stateMachine: StateMachine;
  readonly logGroup: LogGroup;
  readonly trigger: Rule;
  /** Requests EventBridge could not start a run for, after a day of retries. */
  readonly triggerDeadLetterQueue: TargetDeadLetterQueue;
  readonly alarms: FanoutAlarms;
  /** The validate function's timeout, from which its in-thread check budget is derived. */
  private readonly validateTimeout: Duration;

  constructor(scope: Construct, id: string, props: FanoutStateMachineProps) {
    super(scope, id);
    const { gateBucket } = props;
    this.validateTimeout = props.timeout;
    this.functions = new FanoutFunctions(this, 'Functions', props);
    this.logGroup = new LogGroup(this, 'LogGroup', {
      // Step Functions' vended-logs prefix keeps the log delivery's resource policy small.
      logGroupName: `/aws/vendedlogs/states/${props.namePrefix}-fanout`,
      retention: props.logRetention,
    });
    this.stateMachine = new StateMachine(this, 'StateMachine', {
      stateMachineName: `${props.namePrefix}-fanout`,
      stateMachineType: StateMachineType.STANDARD,
      definitionBody: DefinitionBody.fromChainable(this.definition(props.config)),
      timeout: Duration.hours(24),
      tracingEnabled: true,
      // Payloads hold keys, counts and the run, never row values: safe to log whole.
      logs: { destination: this.logGroup, level: LogLevel.ALL, includeExecutionData: true },
    });
    // The item reader names the bucket by path, so CDK grants nothing bucket-wide: just the runs.
    const runs = gateBucket.bucket.arnForObjects(`${fanoutPrefix(gateBucket, 'runs')}*`);
    this.stateMachine.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [runs] }));
    // A request not started leaves its drop in staging with nothing to redeliver it: retried as long as EventBridge allows.
    this.triggerDeadLetterQueue = new TargetDeadLetterQueue(this, 'RequestedDeadLetters', { retryAttempts: 185, maxEventAge: Duration.hours(24) });
    this.trigger = this.startOnRequest(props);
    this.acknowledge(runs);
    const alarms = props.alarms ?? { namePrefix: props.namePrefix, actions: [props.notices.alarmAction] };
    this.alarms = new FanoutAlarms(this, 'Alarms', { ...alarms, stateMachine: this.stateMachine, trigger: this.trigger, triggerDeadLetterQueue: this.triggerDeadLetterQueue.queue });
    if (gateBucket.bucket instanceof Bucket) {
      gateBucket.bucket.addLifecycleRule({ id: 'expire-fanout-runs', prefix: fanoutPrefix(gateBucket, 'runs'), expiration: RUN_RETENTION });
    }
  }

  /**
   * The validate function hands partitions past these limits to the fan-out, and those whose check
   * is still running GATE_FANOUT_CHECK_SECONDS into it (lambdas/fanout/fanout-environment.ts).
   */
  handOffFrom(validate: LambdaFunction, config: FanoutConfig): void {
    validate.addEnvironment('GATE_FANOUT_MAX_FILES', String(config.maxFiles));
    validate.addEnvironment('GATE_FANOUT_MAX_BYTES', String(config.maxBytes));
    validate.addEnvironment('GATE_FANOUT_CHECK_SECONDS', String(checkSecondsFor(this.validateTimeout.toSeconds())));
  }

  private definition(config: FanoutConfig) {
    const plan = this.invoke('Plan', this.functions.plan.function, TaskInput.fromJsonPathAt('$'));
    const checkFiles = new DistributedMap(this, 'CheckFiles', {
      itemReader: new S3JsonItemReader({ bucketNamePath: JsonPath.stringAt('$.bucket'), key: JsonPath.stringAt('$.itemsKey') }),
      itemSelector: { run: JsonPath.objectAt('$.run'), item: JsonPath.objectAt('$$.Map.Item.Value') },
      maxConcurrency: config.mapConcurrency,
      // Standard children: one file may take longer than an Express execution's five minutes.
      mapExecutionType: StateMachineType.STANDARD,
      label: 'CheckFiles',
      resultPath: JsonPath.DISCARD,
    });
    checkFiles.itemProcessor(this.invoke('CheckFile', this.functions.mapFile.function, TaskInput.fromJsonPathAt('$')));
    const confirm = new MapState(this, 'ConfirmDuplicates', {
      itemsPath: '$.shards',
      itemSelector: { run: JsonPath.objectAt('$.run'), shard: JsonPath.objectAt('$$.Map.Item.Value') },
      maxConcurrency: Math.min(config.mapConcurrency, INLINE_MAP_MAX_CONCURRENCY),
      resultPath: JsonPath.DISCARD,
    });
    confirm.itemProcessor(this.invoke('ReduceShard', this.functions.reduceShard.function, TaskInput.fromJsonPathAt('$')));
    const decide = this.invoke('Decide', this.functions.decide.function, TaskInput.fromObject({ run: JsonPath.objectAt('$.run') }));
    const anythingToCheck = new Choice(this, 'AnythingToCheck')
      .when(Condition.booleanEquals('$.skipToDecide', true), decide)
      .otherwise(checkFiles.next(confirm).next(decide));
    return plan.next(anythingToCheck);
  }

  /** A step's Lambda; every step is idempotent, so any failure is retried. */
  private invoke(id: string, fn: IFunction, payload: TaskInput): LambdaInvoke {
    const task = new LambdaInvoke(this, id, { lambdaFunction: fn, payload, outputPath: '$.Payload' });
    task.addRetry({ errors: ['States.ALL'], interval: Duration.seconds(10), backoffRate: 2, maxAttempts: 4 });
    return task;
  }

  /** Object-created events of `requested.json` under the runs prefix start an execution. */
  private startOnRequest(props: FanoutStateMachineProps): Rule {
    const { bucket } = props.gateBucket;
    bucket.enableEventBridgeNotification();
    return new Rule(this, 'Requested', {
      ruleName: `${props.namePrefix}-fanout-requested`,
      description: `Starts ${props.namePrefix}-fanout for each fan-out request`,
      eventPattern: {
        source: ['aws.s3'],
        detailType: ['Object Created'],
        // A wildcard, since a prefix and a suffix on one field cannot be combined otherwise.
        detail: { bucket: { name: [bucket.bucketName] }, object: { key: Match.wildcard(`${fanoutPrefix(props.gateBucket, 'runs')}*/requested.json`) } },
      },
      targets: [new SfnStateMachine(this.stateMachine, {
        input: RuleTargetInput.fromObject({ bucket: EventField.fromPath('$.detail.bucket.name'), requestKey: EventField.fromPath('$.detail.object.key') }),
        ...this.triggerDeadLetterQueue.targetProps,
      })],
    });
  }

  private acknowledge(runs: string): void {
    acknowledgeWildcardResources(
      this.stateMachine,
      [runs, ...this.functions.all.map((f) => `${f.function.functionArn}:*`)],
      'The item reader reads items.json under _gate/runs/* (keys named per run); a Lambda step may invoke the versions of its own function (<arn>:*), as CDK\'s LambdaInvoke grants.',
    );
    // As CDK grants them for a Distributed Map: its child executions, named by Step Functions.
    const name = Fn.select(6, Fn.split(':', this.stateMachine.stateMachineArn));
    const executions = `arn:${Aws.PARTITION}:states:${Aws.REGION}:${Aws.ACCOUNT_ID}:execution:${name}`;
    acknowledgeWildcardResources(
      this.stateMachine,
      [`${executions}:*`, `${executions}/CheckFiles:*`],
      'A Distributed Map starts, describes and stops child executions of this state machine, whose names Step Functions generates at run time.',
    );
    Validations.of(this.stateMachine).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'Log delivery to CloudWatch Logs (logs:CreateLogDelivery and its kin) and X-Ray tracing (xray:PutTraceSegments) have no resource-level permissions.',
    });
  }
}
