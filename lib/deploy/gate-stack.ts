import { CfnOutput, Duration, Stack, Tags, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import type { Contract } from '../contract/model.js';
import type { EnvironmentConfig } from './environment-config.js';
import { FanoutStateMachine } from './fanout-state-machine.js';
import { GateAlarms } from './gate-alarms.js';
import { GateBucket } from './gate-bucket.js';
import { GateTopic } from './gate-topic.js';
import { planEmailSubscriptions } from '../subscriptions/email-recipients.js';
import { ProbeFunction } from './probe-function.js';
import { ReadyQueue } from './ready-queue.js';
import { ReconcileFunction } from './reconcile-function.js';
import { grantReadRegistry, grantReconcile } from './registry-grants.js';
import { ValidateFunction } from './validate-function.js';

export interface GateStackProps extends StackProps {
  readonly config: EnvironmentConfig;
  /**
   * The contracts the functions ship with (`contracts.source` "bundled"); their owners subscribe
   * to their notices. Unused with the registry, where the reconcile function subscribes them.
   */
  readonly contracts: readonly Contract[];
}

/**
 * The gate in one environment: bucket, ready queue, validate and probe functions, notices,
 * alarms; with the contract registry, the subscription reconciler too.
 */
export class GateStack extends Stack {
  readonly gateBucket: GateBucket;
  readonly notices: GateTopic;
  readonly ready: ReadyQueue;
  readonly validate: ValidateFunction;
  readonly probe: ProbeFunction;
  /** Present when the environment enables the fan-out for big partitions. */
  readonly fanout?: FanoutStateMachine;
  /** Present when contracts come from the registry. */
  readonly reconcile?: ReconcileFunction;

  constructor(scope: Construct, id: string, props: GateStackProps) {
    super(scope, id, props);
    // Pinned here, not in cdk.json, so the stack means the same in every app and test: access
    // logs are delivered under a bucket policy, not the legacy ACL (which ACL-less buckets refuse).
    this.node.setContext('@aws-cdk/aws-s3:serverAccessLogsUseBucketPolicy', true);
    const { config } = props;
    const name = `contract-gate-${config.name}`;
    const registry = config.contracts.source === 'registry' ? config.contracts : undefined;
    const bundleContracts = registry === undefined;
    Tags.of(this).add('project', 'contract-gate');
    Tags.of(this).add('environment', config.name);

    this.gateBucket = new GateBucket(this, 'GateBucket', {
      source: config.bucket,
      prefixes: config.prefixes,
      marker: config.marker,
      quarantineRetention: Duration.days(config.quarantineRetentionDays),
      stateRetention: Duration.days(config.stateRetentionDays),
      noncurrentVersionRetention: Duration.days(config.noncurrentVersionRetentionDays),
      ...(registry ? { registryPrefix: registry.prefix } : {}),
    });

    this.notices = new GateTopic(this, 'Notices', { topicName: `${name}-notices`, displayName: `contract-gate ${config.name}` });
    // With the registry, owners are the reconcile function's to subscribe: only the alert addresses are made here.
    this.notices.subscribeEmails(planEmailSubscriptions(registry ? [] : props.contracts, config.alertEmails));

    const timeout = Duration.seconds(config.validateTimeoutSeconds);
    this.ready = new ReadyQueue(this, 'Ready', { queueName: `${name}-ready`, visibilityTimeout: Duration.seconds(6 * config.validateTimeoutSeconds) });
    this.gateBucket.notifyReady(this.ready.queue);

    this.validate = new ValidateFunction(this, 'Validate', {
      functionName: `${name}-validate`,
      queue: this.ready.queue,
      memorySize: config.validateMemoryMb,
      timeout,
      maxConcurrency: config.validateMaxConcurrency,
      logRetention: config.logRetentionDays,
      bundleContracts,
    });
    this.gateBucket.grantValidate(this.validate.function);
    this.notices.grantPublish(this.validate.function);

    if (config.fanout?.enabled) {
      this.fanout = new FanoutStateMachine(this, 'Fanout', {
        namePrefix: name,
        gateBucket: this.gateBucket,
        notices: this.notices,
        config: config.fanout,
        logRetention: config.logRetentionDays,
        memorySize: config.validateMemoryMb,
        timeout,
        ...(registry ? { registry } : {}),
      });
      this.fanout.handOffFrom(this.validate.function, config.fanout);
    }

    this.probe = new ProbeFunction(this, 'Probe', {
      functionName: `${name}-probe`,
      interval: Duration.minutes(config.probeIntervalMinutes),
      logRetention: config.logRetentionDays,
      bundleContracts,
    });
    this.gateBucket.grantProbe(this.probe.function);
    this.notices.grantPublish(this.probe.function);

    if (registry) {
      for (const fn of [this.validate, this.probe]) grantReadRegistry(this.gateBucket, fn.function, registry.refreshSeconds);
      this.reconcile = new ReconcileFunction(this, 'Reconcile', { functionName: `${name}-reconcile`, logRetention: config.logRetentionDays });
      grantReconcile(this.gateBucket, this.reconcile.function);
      this.notices.grantManageSubscriptions(this.reconcile.function);
      this.gateBucket.notifyRegistry(this.reconcile.function);
    }

    new GateAlarms(this, 'Alarms', {
      namePrefix: name,
      action: this.notices.alarmAction,
      queue: this.ready.queue,
      deadLetterQueue: this.ready.deadLetterQueue,
      validateFunction: this.validate.function,
      validateLogGroup: this.validate.logGroup,
      probeFunction: this.probe.function,
      ...(this.reconcile ? { reconcileFunction: this.reconcile.function } : {}),
      queueAgeThreshold: Duration.minutes(config.queueAgeAlarmMinutes),
    });

    new CfnOutput(this, 'BucketName', { value: this.gateBucket.bucket.bucketName, description: 'Producers drop partitions here' });
    new CfnOutput(this, 'TopicArn', { value: this.notices.topic.topicArn, description: 'Every notice and alarm; subscribe with a filter policy' });
    new CfnOutput(this, 'DeadLetterQueueUrl', { value: this.ready.deadLetterQueue.queueUrl, description: 'Markers that failed every delivery' });
    if (registry) new CfnOutput(this, 'RegistryPrefix', { value: registry.prefix, description: 'Producers publish contracts under this prefix of the bucket (contract-gate publish)' });
  }
}
