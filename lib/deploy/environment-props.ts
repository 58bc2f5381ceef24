import { Duration, Size } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import type { Contract } from '../contract/model.js';
import type { ContractGateProps } from './contract-gate-props.js';
import type { EnvironmentConfig } from './environment-config.js';

/**
 * The ContractGate props of an environment of cdk.json, whose numbers (JSON has no Duration)
 * become Durations and Sizes here. Its resources keep the names they have always had
 * (`contract-gate-<env>-validate`, ...): the environment's name is the gate's and, prefixed, the
 * name prefix. `bundledContracts` ship only with `contracts.source` "bundled".
 */
export function environmentGateProps(scope: Construct, config: EnvironmentConfig, bundledContracts: readonly Contract[] = []): ContractGateProps {
  const { bucket, contracts, fanout } = config;
  return {
    gateName: config.name,
    namePrefix: `contract-gate-${config.name}`,
    ...(bucket.mode === 'import' ? { bucket: importedBucket(scope, bucket.name) } : createdBucket(config)),
    prefixes: config.prefixes,
    marker: config.marker,
    ...(contracts.source === 'bundled'
      ? { contracts: { source: 'bundled' }, ...(bundledContracts.length > 0 ? { bundledContracts } : {}) }
      : { contracts: { source: 'registry', prefix: contracts.prefix, refreshInterval: Duration.seconds(contracts.refreshSeconds) } }),
    alertEmails: config.alertEmails,
    probeInterval: Duration.minutes(config.probeIntervalMinutes),
    logRetention: config.logRetentionDays,
    validateMemorySize: Size.mebibytes(config.validateMemoryMb),
    validateTimeout: Duration.seconds(config.validateTimeoutSeconds),
    validateMaxConcurrency: config.validateMaxConcurrency,
    queueAgeAlarm: Duration.minutes(config.queueAgeAlarmMinutes),
    abandonedAfter: Duration.hours(config.abandonedAfterHours),
    fanout: {
      enabled: fanout.enabled,
      maxFiles: fanout.maxFiles,
      maxBytes: Size.bytes(fanout.maxBytes),
      mapConcurrency: fanout.mapConcurrency,
      ...(fanout.bucketEventBridge ? { bucketEventBridge: fanout.bucketEventBridge } : {}),
    },
  };
}

/** The retention settings, which only a bucket the gate creates takes. */
function createdBucket(config: EnvironmentConfig): Partial<ContractGateProps> {
  return {
    ...(config.bucket.name ? { bucketName: config.bucket.name } : {}),
    quarantineRetention: Duration.days(config.quarantineRetentionDays),
    stateRetention: Duration.days(config.stateRetentionDays),
    noncurrentVersionRetention: Duration.days(config.noncurrentVersionRetentionDays),
    ...(config.stagingExpirationDays ? { stagingExpiration: Duration.days(config.stagingExpirationDays) } : {}),
    ...(config.objectLock ? { objectLock: { mode: config.objectLock.mode, retention: Duration.days(config.objectLock.days) } } : {}),
  };
}

/**
 * An existing bucket by name, at the path `GateBucket/Bucket` its construct had when the gate
 * imported it itself: the path names its notifications resource, which keeps its logical ID, so a
 * deployed stack updates that resource in place rather than replacing it (a replacement's delete
 * would remove the notifications its successor just wrote).
 */
function importedBucket(scope: Construct, name: string) {
  return Bucket.fromBucketName(new Construct(scope, 'GateBucket'), 'Bucket', name);
}
