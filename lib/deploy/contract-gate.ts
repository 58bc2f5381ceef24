import { CfnOutput, Duration, Names, Tags, type RemovalPolicy } from 'aws-cdk-lib';
import type { Alarm, IAlarmAction, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { planEmailSubscriptions } from '../subscriptions/email-recipients.js';
import type { ContractGateProps } from './contract-gate-props.js';
import { grantDataset, grantPublishContract, requireDatasetName } from './dataset-grants.js';
import { FanoutStateMachine } from './fanout-state-machine.js';
import { GateAlarms } from './gate-alarms.js';
import { GateBucket } from './gate-bucket.js';
import { GateDashboard } from './gate-dashboard.js';
import { GateMetrics, METRICS_NAMESPACE, METRICS_SERVICE, type GateMetricOptions } from './gate-metrics.js';
import { gateSettings, type GateSettings } from './gate-settings.js';
import { GateTopic } from './gate-topic.js';
import { ProbeFunction } from './probe-function.js';
import { ReadyQueue } from './ready-queue.js';
import { ReconcileFunction } from './reconcile-function.js';
import { grantReadRegistry, grantReconcile } from './registry-grants.js';
import { ValidateFunction } from './validate-function.js';

export type { ContractGateProps } from './contract-gate-props.js';

/**
 * The whole gate as one construct, for any stack: bucket (new or existing), ready queue,
 * validate and probe functions, the notice topic (new or existing), alarms; the fan-out for big
 * partitions and, with the contract registry, the subscription reconciler. `new
 * ContractGate(stack, 'Gate')` alone deploys a working gate on a new bucket, reading contracts
 * from its registry, with CloudFormation-generated names: two gates in one account never collide.
 */
export class ContractGate extends Construct {
  /** The gate's `Gate` metric dimension and `contract-gate:gate` tag. */
  readonly gateName: string;
  /** The gate's own alarms, by name. */
  readonly gateAlarms: GateAlarms;
  /** The gate's CloudWatch metrics, each with its `Gate` dimension (the functions' GATE_NAME). */
  readonly metrics: GateMetrics;
  readonly gateBucket: GateBucket;
  readonly notices: GateTopic;
  readonly ready: ReadyQueue;
  readonly validate: ValidateFunction;
  readonly probe: ProbeFunction;
  /** Present when the fan-out is enabled. */
  readonly fanout?: FanoutStateMachine;
  /** Present when contracts come from the registry. */
  readonly reconcile?: ReconcileFunction;
  readonly dashboard: GateDashboard;
  private readonly settings: GateSettings;

  constructor(scope: Construct, id: string, props: ContractGateProps = {}) {
    super(scope, id);
    // Here, so the gate means the same in any stack: access logs are delivered under a bucket
    // policy, not the legacy ACL (which ACL-less buckets refuse).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    this.settings = gateSettings(props, Names.uniqueResourceName(this, { maxLength: 64 }), `ContractGate "${this.node.path}"`);
    const { settings } = this;
    this.gateName = settings.gateName;
    this.metrics = new GateMetrics(settings.gateName);
    // Added, never set over a company's own tags: a key of the gate's own.
    Tags.of(this).add('contract-gate:gate', settings.gateName);
    this.gateBucket = this.bucketOf(props);
    this.notices = new GateTopic(this, 'Notices', {
      ...(props.topic ? { topic: props.topic } : {}),
      ...optionalName('topicName', this.named('notices')),
      displayName: `contract-gate ${settings.gateName}`,
      removalPolicy: settings.removalPolicy,
    });
    // With the registry, owners are the reconcile function's to subscribe: only the alert addresses are made here.
    this.notices.subscribeEmails(planEmailSubscriptions(settings.registry ? [] : (props.bundledContracts ?? []), settings.alertEmails));
    // A failed marker is retried once its invocation could have ended (the timeout, plus a
    // minute), not after Lambda's advised 6x: every delivery is idempotent, so a throttled one
    // received again early only costs a receive, and ten receives make room for that.
    this.ready = new ReadyQueue(this, 'Ready', { ...optionalName('queueName', this.named('ready')), visibilityTimeout: settings.validateTimeout.plus(Duration.minutes(1)), maxReceiveCount: 10 });
    this.gateBucket.notifyReady(this.ready.queue);
    this.validate = this.createValidate();
    this.fanout = settings.fanout ? this.createFanout(settings.fanout, props.alarmActions) : undefined;
    this.probe = this.createProbe();
    this.reconcile = settings.registry ? this.registryReaders(settings.registry.refresh) : undefined;
    this.gateAlarms = this.createAlarms(props.alarmActions);
    // Every alarm under the gate is found at synth, the fan-out's included.
    this.dashboard = new GateDashboard(this, 'Dashboard', { ...optionalName('dashboardName', settings.namePrefix), gateName: settings.gateName });
    this.outputs();
    for (const fn of [this.validate, this.probe, ...(this.reconcile ? [this.reconcile] : []), ...(this.fanout?.functions.all ?? [])]) {
      fn.function.addEnvironment('GATE_NAME', settings.gateName);
      fn.function.addEnvironment('POWERTOOLS_SERVICE_NAME', METRICS_SERVICE);
      fn.function.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', METRICS_NAMESPACE);
    }
  }

  /** The bucket producers drop into, created or given. */
  get bucket(): IBucket {
    return this.gateBucket.bucket;
  }

  /** The key the bucket's objects are encrypted with, when SSE-KMS. */
  get encryptionKey(): IKey | undefined {
    return this.gateBucket.encryptionKey;
  }

  /** Every notice and alarm goes here, created or given. */
  get topic(): ITopic {
    return this.notices.topic;
  }

  /** The completion markers' events, waiting for the validate function. */
  get queue(): Queue {
    return this.ready.queue;
  }

  /** Markers that failed every delivery. */
  get deadLetterQueue(): Queue {
    return this.ready.deadLetterQueue;
  }

  get validateFunction(): LambdaFunction {
    return this.validate.function;
  }

  get probeFunction(): LambdaFunction {
    return this.probe.function;
  }

  /** Present when contracts come from the registry. */
  get reconcileFunction(): LambdaFunction | undefined {
    return this.reconcile?.function;
  }

  /** The fan-out's state machine, when the fan-out is enabled (its functions: `fanout.functions`). */
  get stateMachine(): StateMachine | undefined {
    return this.fanout?.stateMachine;
  }

  /** Every alarm of the gate, the fan-out's included (by name: `gateAlarms`, `fanout.alarms`). */
  get alarms(): readonly Alarm[] {
    return [...this.gateAlarms.alarms, ...(this.fanout?.alarms.alarms ?? [])];
  }

  /** Drops of this gate published (of one contract with `contract`): Sum over 5 minutes. */
  metricPublished(options?: GateMetricOptions): Metric {
    return this.metrics.metric('DropsPublished', options);
  }

  /** Drops of this gate quarantined, refusals included. */
  metricQuarantined(options?: GateMetricOptions): Metric {
    return this.metrics.metric('DropsQuarantined', options);
  }

  /** Drops refused unread (no contract, retired, a bad path or manifest). */
  metricRefused(options?: GateMetricOptions): Metric {
    return this.metrics.metric('DropsRefused', options);
  }

  /** Drops superseded by a newer drop of their partition before their verdict was carried out. */
  metricSuperseded(options?: GateMetricOptions): Metric {
    return this.metrics.metric('DropsSuperseded', options);
  }

  /** Markers the validate function could not finish (retried): the gate's own failures, not the data's. */
  metricFailed(options?: Omit<GateMetricOptions, 'contract'>): Metric {
    return this.metrics.metric('MarkerFailures', options);
  }

  /**
   * A producer's role for one dataset: drop partitions into `<staging><name>/` (and list there,
   * for `drop`'s own checks), read the gate's decisions and quarantine reports of that dataset
   * (`drop --wait`), and, with the registry, register the dataset's contracts; kms:Decrypt and
   * kms:GenerateDataKey on the bucket's key. A role of another account is allowed on the bucket
   * and key policies too; for an existing bucket or key, whose policy this stack cannot change,
   * that is an error naming the statements their owner must add.
   */
  grantProducer(grantee: IGrantable, dataset: string): Grant {
    requireDatasetName(dataset);
    const { prefixes } = this.settings;
    const staged = grantDataset(this.gateBucket, grantee, ['s3:PutObject', 's3:GetObject'], [`${prefixes.staging}${dataset}/`]);
    const read = grantDataset(this.gateBucket, grantee, ['s3:GetObject'], [`${prefixes.state}decisions/${dataset}/`, `${prefixes.quarantine}${dataset}/`]);
    const grant = staged.combine(read);
    return this.settings.registry ? grant.combine(this.grantPublishContract(grantee, dataset)) : grant;
  }

  /**
   * A consumer's role for one dataset: read and list what the gate published of it, `_SUCCESS`
   * included, and kms:Decrypt on the bucket's key. Another account's role as for grantProducer.
   */
  grantConsumer(grantee: IGrantable, dataset: string): Grant {
    requireDatasetName(dataset);
    return grantDataset(this.gateBucket, grantee, ['s3:GetObject'], [`${this.settings.prefixes.published}${dataset}/`]);
  }

  /**
   * Lets a producer (a CI role, a team's deploy user) register the contracts of one dataset
   * (`contract-gate publish`): read, write and list under `<registry prefix><name>/`, nothing of
   * other datasets. Part of grantProducer; on its own for a role that only publishes contracts.
   */
  grantPublishContract(grantee: IGrantable, dataset: string): Grant {
    return grantPublishContract(this.gateBucket, grantee, dataset);
  }

  /** `<namePrefix>-<suffix>`, or undefined (a generated name) without a prefix. */
  private named(suffix: string): string | undefined {
    return this.settings.namePrefix === undefined ? undefined : `${this.settings.namePrefix}-${suffix}`;
  }

  private bucketOf(props: ContractGateProps): GateBucket {
    const { settings } = this;
    return new GateBucket(this, 'GateBucket', {
      ...(props.bucket ? { bucket: props.bucket } : {}),
      ...(props.encryptionKey ? { encryptionKey: props.encryptionKey } : {}),
      ...(settings.createdBucket ? { create: { ...settings.createdBucket, removalPolicy: settings.removalPolicy } } : {}),
      prefixes: settings.prefixes,
      marker: settings.marker,
      ...(settings.registry ? { registryPrefix: settings.registry.prefix } : {}),
    });
  }

  /** What every gate function shares. */
  private functionDefaults(): { runtime: Runtime; removalPolicy: RemovalPolicy; logRetention: RetentionDays; bundleContracts: boolean; contractFiles?: readonly string[] } {
    const { settings } = this;
    return {
      runtime: settings.runtime,
      removalPolicy: settings.removalPolicy,
      logRetention: settings.logRetention,
      bundleContracts: settings.registry === undefined,
      ...(settings.contractFiles ? { contractFiles: settings.contractFiles } : {}),
    };
  }

  private createValidate(): ValidateFunction {
    const validate = new ValidateFunction(this, 'Validate', {
      ...this.functionDefaults(),
      ...optionalName('functionName', this.named('validate')),
      queue: this.ready.queue,
      memorySize: this.settings.validateMemoryMb,
      timeout: this.settings.validateTimeout,
      maxConcurrency: this.settings.validateMaxConcurrency,
    });
    this.gateBucket.grantValidate(validate.function);
    this.notices.grantPublish(validate.function);
    return validate;
  }

  private createFanout(config: NonNullable<GateSettings['fanout']>, alarmActions: readonly IAlarmAction[] | undefined): FanoutStateMachine {
    const { settings } = this;
    const { bundleContracts: _bundled, ...defaults } = this.functionDefaults();
    const fanout = new FanoutStateMachine(this, 'Fanout', {
      ...defaults,
      ...optionalName('namePrefix', settings.namePrefix),
      gateBucket: this.gateBucket,
      notices: this.notices,
      alarmActions: alarmActions ?? [this.notices.alarmAction],
      config,
      memorySize: settings.validateMemoryMb,
      timeout: settings.validateTimeout,
      ...(settings.registry ? { registry: { refreshSeconds: settings.registry.refresh.toSeconds() } } : {}),
    });
    fanout.handOffFrom(this.validate.function, config);
    return fanout;
  }

  private createProbe(): ProbeFunction {
    const probe = new ProbeFunction(this, 'Probe', {
      ...this.functionDefaults(),
      ...optionalName('functionName', this.named('probe')),
      interval: this.settings.probeInterval,
    });
    this.gateBucket.grantProbe(probe.function);
    probe.function.addEnvironment('GATE_ABANDONED_AFTER_HOURS', String(this.settings.abandonedAfterHours));
    this.notices.grantPublish(probe.function);
    return probe;
  }

  /** The functions read the registry; the reconciler subscribes whom registered contracts name. */
  private registryReaders(refresh: Duration): ReconcileFunction {
    for (const fn of [this.validate, this.probe]) grantReadRegistry(this.gateBucket, fn.function, refresh.toSeconds());
    const { runtime, removalPolicy, logRetention } = this.functionDefaults();
    const reconcile = new ReconcileFunction(this, 'Reconcile', { ...optionalName('functionName', this.named('reconcile')), runtime, removalPolicy, logRetention });
    grantReconcile(this.gateBucket, reconcile.function);
    this.notices.grantManageSubscriptions(reconcile.function);
    this.gateBucket.notifyRegistry(reconcile.function);
    return reconcile;
  }

  private createAlarms(alarmActions: readonly IAlarmAction[] | undefined): GateAlarms {
    return new GateAlarms(this, 'Alarms', {
      ...optionalName('namePrefix', this.settings.namePrefix),
      actions: alarmActions ?? [this.notices.alarmAction],
      gateName: this.settings.gateName,
      probeDeadLetterQueue: this.probe.deadLetterQueue.queue,
      ...(this.reconcile ? { reconcileDeadLetterQueue: this.reconcile.deadLetterQueue.queue } : {}),
      queue: this.ready.queue,
      deadLetterQueue: this.ready.deadLetterQueue,
      validateFunction: this.validate.function,
      validateLogGroup: this.validate.logGroup,
      probeFunction: this.probe.function,
      ...(this.reconcile ? { reconcileFunction: this.reconcile.function } : {}),
      queueAgeThreshold: this.settings.queueAgeAlarm,
    });
  }

  private outputs(): void {
    new CfnOutput(this, 'BucketName', { value: this.bucket.bucketName, description: 'Producers drop partitions here' });
    new CfnOutput(this, 'TopicArn', { value: this.topic.topicArn, description: 'Every notice and alarm; subscribe with a filter policy' });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.deadLetterQueue.queueUrl, description: 'Markers that failed every delivery' });
    const registryPrefix = this.settings.registry?.prefix;
    if (registryPrefix) new CfnOutput(this, 'RegistryPrefix', { value: registryPrefix, description: 'Producers publish contracts under this prefix of the bucket (contract-gate publish)' });
  }
}

/** `{ [key]: name }`, or nothing: an absent name is generated by CloudFormation. */
function optionalName<K extends string>(key: K, name: string | undefined): { [P in K]?: string } {
  return (name === undefined ? {} : { [key]: name }) as { [P in K]?: string };
}
