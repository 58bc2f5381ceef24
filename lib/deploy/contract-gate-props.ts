import type { Duration, RemovalPolicy, Size } from 'aws-cdk-lib';
import type { IAlarmAction } from 'aws-cdk-lib/aws-cloudwatch';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import type { Runtime } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import type { ITopic } from 'aws-cdk-lib/aws-sns';
import type { Contract } from '../contract/model.js';

/**
 * What a ContractGate is made of, as CDK constructs take their props: resources as objects
 * (`IBucket`, `IKey`, `ITopic`), times as `Duration`, sizes as `Size`. Every prop is optional:
 * `new ContractGate(stack, 'Gate')` deploys a working gate on a new bucket. The project's own app
 * reads the same settings from cdk.json (environment-config.ts) and maps them onto these.
 */
export interface ContractGateProps {
  /**
   * Identifies this gate in its metrics (the `Gate` dimension), its dashboard and the
   * `contract-gate:gate` tag: two gates in one account never mix. 1-64 of A-Z, a-z, 0-9, -, _.
   * @default the construct's unique id in the app (`Names.uniqueId`)
   */
  readonly gateName?: string;
  /**
   * Physical names for the gate's resources (`<namePrefix>-validate`, `<namePrefix>-notices`, ...).
   * Only when asked: names are unique per account and region, so two gates with the same prefix
   * collide. 1-40 of a-z, 0-9, -, starting with a letter.
   * @default none: CloudFormation generates every name
   */
  readonly namePrefix?: string;
  /**
   * The bucket producers drop into. An existing bucket (`Bucket.fromBucketName`, a name from
   * `Fn.importValue`, a `Bucket` of another stack) keeps its own policy, lifecycle, logging and
   * encryption: the gate only adds grants and event notifications (in the gate's stack: a bucket of
   * another stack is used by its name from this one). Retention, lock and `bucketName` props are
   * errors with it.
   * @default a new versioned bucket, with access logs, lifecycle rules and the audit statements
   */
  readonly bucket?: IBucket;
  /**
   * The name of the bucket the gate creates. Only without `bucket`: an existing bucket has its name.
   * @default none: CloudFormation generates it
   */
  readonly bucketName?: string;
  /**
   * The KMS key the bucket's objects are encrypted with: every gate role, producer and consumer
   * is granted `kms:Decrypt` (and `kms:GenerateDataKey` where it writes) on it. Given without
   * `bucket`, the created bucket is encrypted with it (SSE-KMS, S3 Bucket Keys on).
   * @default the bucket's own `encryptionKey` when it has one; none (SSE-S3) for a created bucket
   */
  readonly encryptionKey?: IKey;
  /**
   * The topic every notice and alarm goes to. An existing topic's subscriptions and key are its
   * owner's; an encrypted one must let the gate's functions (and CloudWatch, for alarms) use its key.
   * @default a new topic, encrypted with a key of its own
   */
  readonly topic?: ITopic;
  /**
   * What every gate alarm does when it fires and when it recovers; `[]` for alarms that only show
   * on the dashboard.
   * @default publish to the notices topic
   */
  readonly alarmActions?: readonly IAlarmAction[];
  /** The Lambda runtime of every gate function. @default Runtime.NODEJS_22_X */
  readonly runtime?: Runtime;
  /**
   * What CloudFormation does with the created bucket, keys and log groups when they leave the
   * stack. The data and its audit trail are kept by default.
   * @default RemovalPolicy.RETAIN
   */
  readonly removalPolicy?: RemovalPolicy;
  /** Where each area lives in the bucket: whole segments ending in `/`, none inside another. @default staging/, published/, quarantine/, _gate/ */
  readonly prefixes?: { readonly staging?: string; readonly published?: string; readonly quarantine?: string; readonly state?: string };
  /** The completion marker's file name. @default '_READY' */
  readonly marker?: string;
  /**
   * Where the functions get contracts: the registry on the bucket (`contract-gate publish`), or
   * the `bundledContracts` shipped with the deployment (then required, at least one).
   * @default { source: 'registry' }
   */
  readonly contracts?: { readonly source: 'registry'; readonly prefix?: string; readonly refreshInterval?: Duration } | { readonly source: 'bundled' };
  /**
   * The contracts shipped with `contracts.source` "bundled" (see loadContractDirectory); their owners
   * are subscribed at deploy time. Given with any other source, an error.
   * @default the `*.yaml` files of `contracts/` beside the package; none there is an error
   */
  readonly bundledContracts?: readonly Contract[];
  /**
   * Subscribed to every notice unfiltered: they get the alarms. Only with a topic the gate creates:
   * given with `topic`, an error (an existing topic's subscriptions are its owner's to make).
   * @default none
   */
  readonly alertEmails?: readonly string[];
  /** How often the clock SLA probe runs. @default Duration.minutes(5) */
  readonly probeInterval?: Duration;
  /** The functions' CloudWatch Logs retention. @default RetentionDays.ONE_MONTH */
  readonly logRetention?: RetentionDays;
  /** Quarantined batches are expired after this (created bucket only). @default Duration.days(90) */
  readonly quarantineRetention?: Duration;
  /** The gate's state (decisions, claims) is expired after this; at least 15 days (created bucket only). @default Duration.days(30) */
  readonly stateRetention?: Duration;
  /** Noncurrent object versions are expired after this (created bucket only). @default Duration.days(30) */
  readonly noncurrentVersionRetention?: Duration;
  /** Staged files this old are deleted, abandoned or not; at least 2 days (created bucket only). @default none: staging is never expired */
  readonly stagingExpiration?: Duration;
  /** The validate function's memory (one full vCPU at 1,769 MiB). @default Size.mebibytes(1769) */
  readonly validateMemorySize?: Size;
  /** The validate function's timeout, at most 15 minutes. @default Duration.minutes(5) */
  readonly validateTimeout?: Duration;
  /** Concurrent validations at most (2-1000). @default 10 */
  readonly validateMaxConcurrency?: number;
  /** The ready queue's oldest message older than this raises an alarm. @default Duration.hours(1) */
  readonly queueAgeAlarm?: Duration;
  /** Staged files with no marker this long are reported to their owner once, as an abandoned drop. @default Duration.hours(24) */
  readonly abandonedAfter?: Duration;
  /**
   * Object Lock on the created bucket: every new object version (audit records included) cannot be
   * deleted or replaced for `retention`; `compliance` binds even the root user. Applies bucket-wide:
   * noncurrent versions of staged and published files are kept as long too.
   * @default none
   */
  readonly objectLock?: { readonly mode?: 'governance' | 'compliance'; readonly retention?: Duration };
  /**
   * Big partitions go to a Step Functions Distributed Map (see the README for the limits). It is
   * started by S3's EventBridge delivery (see `bucketEventBridge`).
   * @default enabled, with limits derived from validateTimeout and validateMemorySize
   */
  readonly fanout?: {
    /** @default true */
    readonly enabled?: boolean;
    /** More staged files than this fan out. @default 200 */
    readonly maxFiles?: number;
    /** More staged bytes than this fan out. @default derived (2.16 GB at 5 minutes and 1,769 MiB) */
    readonly maxBytes?: Size;
    /** Files checked at once (the Distributed Map's MaxConcurrency). @default 40 */
    readonly mapConcurrency?: number;
    /**
     * The fan-out starts from S3's EventBridge delivery, which is bucket-wide. `enable` switches it
     * on; `enabled-by-owner` says the existing bucket already sends to EventBridge.
     * @default 'enable' for a created bucket; required for an existing one while the fan-out is enabled
     */
    readonly bucketEventBridge?: 'enable' | 'enabled-by-owner';
  };
}
