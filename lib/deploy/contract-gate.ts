import { CfnOutput, Duration, Tags } from 'aws-cdk-lib';
import type { Grant, IGrantable } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import { planEmailSubscriptions } from '../subscriptions/email-recipients.js';
import type { ContractGateProps } from './contract-gate-props.js';
import { environmentConfig, type EnvironmentConfig } from './environment-config.js';
import { FanoutStateMachine } from './fanout-state-machine.js';
import { GateAlarms } from './gate-alarms.js';
import { GateBucket, requireDatasetName } from './gate-bucket.js';
import { GateDashboard, METRICS_NAMESPACE, METRICS_SERVICE } from './gate-dashboard.js';
import { GateTopic } from './gate-topic.js';
import { ProbeFunction } from './probe-function.js';
import { ReadyQueue } from './ready-queue.js';
import { ReconcileFunction } from './reconcile-function.js';
import { grantReadRegistry, grantReconcile } from './registry-grants.js';
import { ValidateFunction } from './validate-function.js';

export type { ContractGateProps } from './contract-gate-props.js';

/**
 * The whole gate as one construct, for any stack: bucket (new or existing), ready queue,
 * validate and probe functions, the notice topic, alarms; the fan-out for big partitions and,
 * with the contract registry, the subscription reconciler. `new ContractGate(stack, 'Gate')`
 * alone deploys a working gate on a new bucket, reading contracts from its registry.
 */
export class ContractGate extends Construct {
  readonly config: EnvironmentConfig;
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

  constructor(scope: Construct, id: string, props: ContractGateProps = {}) {
    super(scope, id);
    // Here, so the gate means the same in any stack: access logs are delivered under a bucket
    // policy, not the legacy ACL (which ACL-less buckets refuse).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    this.config = gateConfig(props);
    const { config } = this;
    const name = `contract-gate-${config.name}`;
    const registry = config.contracts.source === 'registry' ? config.contracts : undefined;
    Tags.of(this).add('project', 'contract-gate');
    Tags.of(this).add('environment', config.name);
    this.gateBucket = new GateBucket(this, 'GateBucket', {
      source: config.bucket,
      prefixes: config.prefixes,
      marker: config.marker,
      quarantineRetention: Duration.days(config.quarantineRetentionDays),
      stateRetention: Duration.days(config.stateRetentionDays),
      noncurrentVersionRetention: Duration.days(config.noncurrentVersionRetentionDays),
      ...(config.stagingExpirationDays ? { stagingExpiration: Duration.days(config.stagingExpirationDays) } : {}),
      ...(registry ? { registryPrefix: registry.prefix } : {}),
      ...(config.objectLock ? { objectLock: config.objectLock } : {}),
    });
    this.notices = new GateTopic(this, 'Notices', { topicName: `${name}-notices`, displayName: `contract-gate ${config.name}` });
    // With the registry, owners are the reconcile function's to subscribe: only the alert addresses are made here.
    this.notices.subscribeEmails(planEmailSubscriptions(registry ? [] : (props.bundledContracts ?? []), config.alertEmails));
    // A failed marker is retried once its invocation could have ended (the timeout, plus a
    // minute), not after Lambda's advised 6x: every delivery is idempotent, so a throttled one
    // received again early only costs a receive, and ten receives make room for that.
    this.ready = new ReadyQueue(this, 'Ready', { queueName: `${name}-ready`, visibilityTimeout: Duration.seconds(config.validateTimeoutSeconds + 60), maxReceiveCount: 10 });
    this.gateBucket.notifyReady(this.ready.queue);
    const files = registry ? undefined : contractFiles(props);
    this.validate = this.validateFunction(name, registry === undefined, files);
    this.fanout = config.fanout?.enabled ? this.fanoutStateMachine(name, files) : undefined;
    this.probe = this.probeFunction(name, registry === undefined, files);
    this.reconcile = registry ? this.registryReaders(name, registry.refreshSeconds) : undefined;
    this.dashboard = this.alarmsAndOutputs(name, registry?.prefix);
    for (const fn of [this.validate.function, this.probe.function, ...(this.reconcile ? [this.reconcile.function] : [])]) {
      fn.addEnvironment('POWERTOOLS_SERVICE_NAME', METRICS_SERVICE);
      fn.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', METRICS_NAMESPACE);
    }
  }

  /**
   * A producer's role for one dataset: drop partitions into `<staging><name>/` (and list there,
   * for `drop`'s own checks), read the gate's decisions and quarantine reports of that dataset
   * (`drop --wait`), and, with the registry, register the dataset's contracts.
   */
  grantProducer(grantee: IGrantable, dataset: string): Grant {
    requireDatasetName(dataset);
    const { prefixes } = this.config;
    const staged = this.gateBucket.grantUnder(grantee, ['s3:PutObject', 's3:GetObject'], [`${prefixes.staging}${dataset}/`]);
    const read = this.gateBucket.grantUnder(grantee, ['s3:GetObject'], [`${prefixes.state}decisions/${dataset}/`, `${prefixes.quarantine}${dataset}/`]);
    const grant = staged.combine(read);
    return this.config.contracts.source === 'registry' ? grant.combine(this.gateBucket.grantPublishContract(grantee, dataset)) : grant;
  }

  /** A consumer's role for one dataset: read and list what the gate published of it, `_SUCCESS` included. */
  grantConsumer(grantee: IGrantable, dataset: string): Grant {
    requireDatasetName(dataset);
    return this.gateBucket.grantUnder(grantee, ['s3:GetObject'], [`${this.config.prefixes.published}${dataset}/`]);
  }

  private validateFunction(name: string, bundleContracts: boolean, files: readonly string[] | undefined): ValidateFunction {
    const validate = new ValidateFunction(this, 'Validate', {
      functionName: `${name}-validate`,
      queue: this.ready.queue,
      memorySize: this.config.validateMemoryMb,
      timeout: Duration.seconds(this.config.validateTimeoutSeconds),
      maxConcurrency: this.config.validateMaxConcurrency,
      logRetention: this.config.logRetentionDays,
      bundleContracts,
      ...(files ? { contractFiles: files } : {}),
    });
    this.gateBucket.grantValidate(validate.function);
    this.notices.grantPublish(validate.function);
    return validate;
  }

  private fanoutStateMachine(name: string, files: readonly string[] | undefined): FanoutStateMachine {
    const { config } = this;
    const registry = config.contracts.source === 'registry' ? config.contracts : undefined;
    const fanout = new FanoutStateMachine(this, 'Fanout', {
      namePrefix: name,
      gateBucket: this.gateBucket,
      notices: this.notices,
      config: config.fanout!,
      logRetention: config.logRetentionDays,
      memorySize: config.validateMemoryMb,
      timeout: Duration.seconds(config.validateTimeoutSeconds),
      ...(registry ? { registry } : {}),
      ...(files ? { contractFiles: files } : {}),
    });
    fanout.handOffFrom(this.validate.function, config.fanout!);
    return fanout;
  }

  private probeFunction(name: string, bundleContracts: boolean, files: readonly string[] | undefined): ProbeFunction {
    const probe = new ProbeFunction(this, 'Probe', {
      functionName: `${name}-probe`,
      interval: Duration.minutes(this.config.probeIntervalMinutes),
      logRetention: this.config.logRetentionDays,
      bundleContracts,
      ...(files ? { contractFiles: files } : {}),
    });
    this.gateBucket.grantProbe(probe.function);
    probe.function.addEnvironment('GATE_ABANDONED_AFTER_HOURS', String(this.config.abandonedAfterHours));
    this.notices.grantPublish(probe.function);
    return probe;
  }

  /** The functions read the registry; the reconciler subscribes whom registered contracts name. */
  private registryReaders(name: string, refreshSeconds: number): ReconcileFunction {
    for (const fn of [this.validate, this.probe]) grantReadRegistry(this.gateBucket, fn.function, refreshSeconds);
    const reconcile = new ReconcileFunction(this, 'Reconcile', { functionName: `${name}-reconcile`, logRetention: this.config.logRetentionDays });
    grantReconcile(this.gateBucket, reconcile.function);
    this.notices.grantManageSubscriptions(reconcile.function);
    this.gateBucket.notifyRegistry(reconcile.function);
    return reconcile;
  }

  private alarmsAndOutputs(name: string, registryPrefix: string | undefined): GateDashboard {
    const alarms = new GateAlarms(this, 'Alarms', {
      namePrefix: name,
      action: this.notices.alarmAction,
      queue: this.ready.queue,
      deadLetterQueue: this.ready.deadLetterQueue,
      validateFunction: this.validate.function,
      validateLogGroup: this.validate.logGroup,
      probeFunction: this.probe.function,
      ...(this.reconcile ? { reconcileFunction: this.reconcile.function } : {}),
      queueAgeThreshold: Duration.minutes(this.config.queueAgeAlarmMinutes),
    });
    const dashboard = new GateDashboard(this, 'Dashboard', { dashboardName: name, alarms: alarms.alarms });
    new CfnOutput(this, 'BucketName', { value: this.gateBucket.bucket.bucketName, description: 'Producers drop partitions here' });
    new CfnOutput(this, 'TopicArn', { value: this.notices.topic.topicArn, description: 'Every notice and alarm; subscribe with a filter policy' });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.ready.deadLetterQueue.queueUrl, description: 'Markers that failed every delivery' });
    if (registryPrefix) new CfnOutput(this, 'RegistryPrefix', { value: registryPrefix, description: 'Producers publish contracts under this prefix of the bucket (contract-gate publish)' });
    return dashboard;
  }
}

/** The props read as an environment of cdk.json is: the same checks, defaults and one error listing every problem. */
function gateConfig(props: ContractGateProps): EnvironmentConfig {
  const { name = 'gate', bundledContracts: _bundled, ...settings } = props;
  return environmentConfig({ [name]: settings }, name);
}

/**
 * The files of the bundled contracts, from where each was loaded (loadContractDirectory stamps
 * it). Contracts made in code have no file: with none of them from a file, the functions bundle
 * `contracts/` beside the project, as the repository's app does.
 */
function contractFiles(props: ContractGateProps): readonly string[] | undefined {
  const files = (props.bundledContracts ?? []).flatMap((contract) => (contract.origin ? [contract.origin.location] : []));
  return files.length > 0 ? files : undefined;
}
