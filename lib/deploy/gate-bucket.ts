import { Duration, Stack, Validations } from 'aws-cdk-lib';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Effect, Grant, PolicyStatement, StarPrincipal, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, EventType, ObjectLockRetention, ObjectOwnership, type IBucket } from 'aws-cdk-lib/aws-s3';
import { LambdaDestination, SqsDestination } from 'aws-cdk-lib/aws-s3-notifications';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { NAME } from '../contract/native-contract.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { POINTER_FILE } from '../registry/registry-layout.js';
import type { BucketSource, GatePrefixes, ObjectLockConfig } from './environment-config.js';
import { acknowledgeWildcardResources } from './nag-acknowledgements.js';

export interface GateBucketProps {
  /** Create the bucket, or use an existing one by name (its owner keeps its lifecycle and logging). */
  readonly source: BucketSource;
  readonly prefixes: GatePrefixes;
  /** The completion marker's file name. */
  readonly marker: string;
  /** @default Duration.days(90) */
  readonly quarantineRetention?: Duration;
  /** @default Duration.days(30) */
  readonly stateRetention?: Duration;
  /** @default Duration.days(30) */
  readonly noncurrentVersionRetention?: Duration;
  /** @default Duration.days(365) */
  readonly accessLogRetention?: Duration;
  /** Staged files this old are deleted, abandoned or not. @default none: staging is never expired */
  readonly stagingExpiration?: Duration;
  /** The contract registry's prefix, when the functions read contracts from the bucket. @default none: bundled contracts */
  readonly registryPrefix?: string;
  /**
   * Object Lock with a default retention for a created bucket. S3's default retention is
   * bucket-wide: noncurrent versions of every area are then kept `days` too, whatever the
   * lifecycle rules say (deletes still work: on a versioned bucket they add delete markers).
   * @default none
   */
  readonly objectLock?: ObjectLockConfig;
}

type Area = keyof GatePrefixes;

/** An area of the bucket, or a folder of it (`state/notices/`: `<state prefix>notices/`). */
type Scope = Area | `${Area}/${string}/`;

/** What a function may do, by area of the bucket. */
interface AreaAccess {
  readonly get: readonly Scope[];
  readonly put: readonly Scope[];
  readonly delete: readonly Scope[];
  /**
   * s3:ListBucket, conditioned on these prefixes. Needed beyond listing: S3 answers a GET or HEAD
   * of a missing key with 404 only to a caller that may list it, and a 403 would fail the gate.
   */
  readonly list: readonly Area[];
}

const VALIDATE_ACCESS: AreaAccess = {
  // quarantine too: before each copy the gate HEADs the target (a GetObject) to skip what an
  // earlier delivery already copied, and re-reads _REPORT.json after a lost conditional create.
  get: ['staging', 'published', 'quarantine', 'state'],
  put: ['published', 'quarantine', 'state'],
  // staging: staged files leave once copied; published: a backfill removes the old _SUCCESS and
  // sets aside the files the new drop no longer has, and a drop superseded part-way takes back
  // its copies (published or quarantine); state: a failed notification releases its claim, a
  // handler its partition lease, a backfill the bytes it held while the old publish came down;
  // a failed page about a registry pointer (registry-pages/) releases its claim too.
  // Decisions are never deleted.
  delete: ['staging', 'published', 'quarantine', 'state/notices/', 'state/leases/', 'state/incoming/', 'state/registry-pages/'],
  list: ['staging', 'published', 'quarantine', 'state'],
};

const PROBE_ACCESS: AreaAccess = {
  // quarantine: a miss quotes the latest quarantine report's summary.
  get: ['published', 'staging', 'quarantine', 'state'],
  // Its own claims only: one notice per miss (sla/), sunset reminder (sunset/), abandoned drop
  // (abandoned/) and registry pointer not enforced (registry-pages/), and since when it expects each
  // contract's partitions (expected/).
  put: ['state/sla/', 'state/sunset/', 'state/abandoned/', 'state/registry-pages/', 'state/expected/'],
  delete: ['state/sla/', 'state/sunset/', 'state/abandoned/', 'state/registry-pages/'],
  list: ['published', 'staging', 'quarantine', 'state'],
};

// The logical ID aws-cdk-lib gives its singleton handler for Custom::S3BucketNotifications.
const NOTIFICATIONS_HANDLER_ID = 'BucketNotificationsHandler050a0587b7544547bf325f094a3db834';

/**
 * The gate's bucket and the only way to grant access to it: each grant adds the prefix-scoped
 * IAM statements and the environment variables the handler reads, so the two never drift.
 */
export class GateBucket extends Construct {
  readonly bucket: IBucket;
  /** Server access logs of a created bucket. */
  readonly accessLogs?: Bucket;
  readonly prefixes: GatePrefixes;
  readonly marker: string;
  /** Where producers register contracts; undefined when the gate ships with bundled contracts. */
  readonly registryPrefix?: string;

  constructor(scope: Construct, id: string, props: GateBucketProps) {
    super(scope, id);
    this.prefixes = props.prefixes;
    this.marker = props.marker;
    if (props.registryPrefix !== undefined) this.registryPrefix = props.registryPrefix;
    if (props.source.mode === 'import') {
      // An imported bucket's policy is its owner's, the write-once statement of denyVersionRewrites too.
      this.bucket = Bucket.fromBucketName(this, 'Bucket', props.source.name);
      return;
    }
    this.accessLogs = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      // Server access logging delivers only to SSE-S3 buckets.
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      lifecycleRules: [{ id: 'expire-access-logs', expiration: props.accessLogRetention ?? Duration.days(365) }],
    });
    Validations.of(this.accessLogs).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This is the access-log bucket of the gate bucket; logging it to itself would loop and to another bucket would only move the question.',
    });
    this.bucket = new Bucket(this, 'Bucket', {
      bucketName: props.source.name,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      minimumTLSVersion: 1.2,
      versioned: true,
      objectOwnership: ObjectOwnership.BUCKET_OWNER_ENFORCED,
      serverAccessLogsBucket: this.accessLogs,
      serverAccessLogsPrefix: 'gate-bucket/',
      ...objectLock(props.objectLock),
      // No rule has the audit prefix (outside the state prefix): its records are never expired.
      lifecycleRules: [
        { id: 'expire-quarantine', prefix: this.prefixes.quarantine, expiration: props.quarantineRetention ?? Duration.days(90) },
        { id: 'expire-gate-state', prefix: this.prefixes.state, expiration: props.stateRetention ?? Duration.days(30) },
        // A staged file's only other copy is the published or quarantined one the gate made: the
        // old version left behind by its deletion is a second copy of every batch, kept a day.
        { id: 'expire-noncurrent-staging', prefix: this.prefixes.staging, noncurrentVersionExpiration: Duration.days(1), ...(props.stagingExpiration ? { expiration: props.stagingExpiration } : {}) },
        {
          id: 'expire-noncurrent-versions',
          noncurrentVersionExpiration: props.noncurrentVersionRetention ?? Duration.days(30),
          expiredObjectDeleteMarker: true,
          abortIncompleteMultipartUploadAfter: Duration.days(7),
        },
      ],
    });
    this.protectAudit();
    if (this.registryPrefix !== undefined) this.denyVersionRewrites(this.registryPrefix);
  }

  /**
   * The owners' audit records (`_audit/`) are created, never replaced or deleted, by anyone: a
   * PUT (or copy) without If-None-Match is denied (S3's s3:if-none-match condition key), and so
   * are deletes and bypassing an Object Lock retention. No gate function may write there at all.
   */
  private protectAudit(): void {
    const records = this.bucket.arnForObjects(`${DEFAULT_LAYOUT.audit}*`);
    this.bucket.addToResourcePolicy(new PolicyStatement({
      sid: 'AuditRecordsAreOnlyCreated',
      effect: Effect.DENY,
      principals: [new StarPrincipal()],
      actions: ['s3:PutObject'],
      resources: [records],
      conditions: { Null: { 's3:if-none-match': 'true' } },
    }));
    this.bucket.addToResourcePolicy(new PolicyStatement({
      sid: 'AuditRecordsAreNeverDeleted',
      effect: Effect.DENY,
      principals: [new StarPrincipal()],
      actions: ['s3:DeleteObject', 's3:DeleteObjectVersion', 's3:BypassGovernanceRetention'],
      resources: [records],
    }));
  }

  /**
   * Registered versions are write-once: `publish` creates each with If-None-Match, and this
   * statement makes S3 refuse any other PutObject of a version object (`<name>/v<major>/<x.y.z>.yaml`),
   * whoever sends it, so a registered version cannot be replaced with other bytes. The pointers
   * (`current.json`) are not covered: they move, by compare-and-swap.
   */
  private denyVersionRewrites(registryPrefix: string): void {
    this.bucket.addToResourcePolicy(new PolicyStatement({
      sid: 'RegisteredContractVersionsAreWriteOnce',
      effect: Effect.DENY,
      principals: [new StarPrincipal()],
      actions: ['s3:PutObject'],
      resources: [this.bucket.arnForObjects(`${registryPrefix}*.yaml`)],
      conditions: { Null: { 's3:if-none-match': 'true' } },
    }));
  }

  /** Sends the object-created event of every completion marker under the staging prefix to `queue`. */
  notifyReady(queue: IQueue): void {
    this.bucket.addEventNotification(EventType.OBJECT_CREATED, new SqsDestination(queue), {
      prefix: this.prefixes.staging,
      suffix: `/${this.marker}`,
    });
    this.acknowledgeNotificationsHandler();
  }

  /**
   * Runs `fn` on every pointer write under the registry prefix (`<name>/v<major>/current.json`):
   * a version coming into force. The version files themselves are not events: only the pointer
   * says which one is in force.
   */
  notifyRegistry(fn: LambdaFunction): void {
    this.bucket.addEventNotification(EventType.OBJECT_CREATED, new LambdaDestination(fn), {
      prefix: this.requireRegistry('a registry notification'),
      suffix: `/${POINTER_FILE}`,
    });
    this.acknowledgeNotificationsHandler();
  }

  /**
   * Lets a producer (a CI role, a team's deploy user) register the contracts of one dataset:
   * read and write under `<registry prefix><name>/` (the version files and the pointers of every
   * major), and list there (a new major is checked against the earlier ones), nothing of other
   * datasets. The same two statements as a bucket policy serve a team outside the stack (README).
   */
  grantPublishContract(grantee: IGrantable, datasetName: string): Grant {
    requireDatasetName(datasetName);
    return this.grantUnder(grantee, ['s3:GetObject', 's3:PutObject'], [`${this.requireRegistry('grantPublishContract')}${datasetName}/`]);
  }

  /** Object actions under each key prefix, and a listing limited to them: what every per-dataset grant is made of. */
  grantUnder(grantee: IGrantable, actions: string[], prefixes: readonly string[]): Grant {
    const objects = Grant.addToPrincipal({ grantee, actions, resourceArns: prefixes.map((p) => this.bucket.arnForObjects(`${p}*`)) });
    const list = Grant.addToPrincipal({
      grantee,
      actions: ['s3:ListBucket'],
      resourceArns: [this.bucket.bucketArn],
      conditions: { StringLike: { 's3:prefix': prefixes.map((p) => `${p}*`) } },
    });
    return objects.combine(list);
  }

  /** The registry prefix, or an error naming what needed it in a gate with bundled contracts. */
  requireRegistry(what: string): string {
    if (this.registryPrefix === undefined) throw new Error(`${what} needs the contract registry, but this gate ships with bundled contracts (contracts.source "bundled")`);
    return this.registryPrefix;
  }

  private acknowledgeNotificationsHandler(): void {
    const handler = Stack.of(this).node.tryFindChild(NOTIFICATIONS_HANDLER_ID);
    if (!handler) throw new Error(`aws-cdk-lib no longer names its bucket-notifications handler ${NOTIFICATIONS_HANDLER_ID}: update gate-bucket.ts`);
    Validations.of(handler).acknowledge({
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]',
      reason: "aws-cdk-lib's Custom::S3BucketNotifications handler always attaches this policy (logs only); it runs during deployments, never on data.",
    });
  }

  /** The validate function: reads a drop, publishes or quarantines it, records its decision. */
  grantValidate(fn: LambdaFunction): void {
    this.grant(fn, VALIDATE_ACCESS);
    // A release killed after its _SUCCESS is finished by the partition's next drop, audit record
    // included: the gate appends to the chain, and the bucket policy lets nobody replace or delete.
    this.grantUnder(fn, ['s3:GetObject', 's3:PutObject'], [DEFAULT_LAYOUT.audit]);
    acknowledgeWildcardResources(fn.role ?? fn, [this.bucket.arnForObjects(`${DEFAULT_LAYOUT.audit}*`)], 'Object ARNs under the audit prefix (_audit/*): records are named by partition and sequence at run time; the bucket policy allows only creating them.');
  }

  /** The SLA probe: reads every area, writes only its own claims under the state prefix. */
  grantProbe(fn: LambdaFunction): void {
    this.grant(fn, PROBE_ACCESS);
  }

  /** The key prefix of an area or of a folder of it. */
  private scopePrefix(scope: Scope): string {
    const [area, ...folder] = scope.split('/') as [Area, ...string[]];
    return `${this.prefixes[area]}${folder.filter((part) => part !== '').map((part) => `${part}/`).join('')}`;
  }

  private grant(fn: LambdaFunction, access: AreaAccess): void {
    const objects = (scopes: readonly Scope[]) => [...new Set(scopes.map((scope) => this.bucket.arnForObjects(`${this.scopePrefix(scope)}*`)))];
    for (const [action, areas] of [['s3:GetObject', access.get], ['s3:PutObject', access.put], ['s3:DeleteObject', access.delete]] as const) {
      fn.addToRolePolicy(new PolicyStatement({ actions: [action], resources: objects(areas) }));
    }
    fn.addToRolePolicy(
      new PolicyStatement({
        actions: ['s3:ListBucket'],
        resources: [this.bucket.bucketArn],
        conditions: { StringLike: { 's3:prefix': access.list.map((area) => `${this.prefixes[area]}*`) } },
      }),
    );
    acknowledgeWildcardResources(
      fn.role ?? fn,
      objects([...access.get, ...access.put, ...access.delete]),
      'Object ARNs scoped to one gate prefix each (staging/*, published/*, quarantine/*, _gate/*): partitions are named by the producer at run time, so the key below the prefix cannot be listed in advance.',
    );
    fn.addEnvironment('GATE_BUCKET', this.bucket.bucketName);
    fn.addEnvironment('GATE_STAGING_PREFIX', this.prefixes.staging);
    fn.addEnvironment('GATE_PUBLISHED_PREFIX', this.prefixes.published);
    fn.addEnvironment('GATE_QUARANTINE_PREFIX', this.prefixes.quarantine);
    fn.addEnvironment('GATE_STATE_PREFIX', this.prefixes.state);
    fn.addEnvironment('GATE_MARKER', this.marker);
  }
}

function objectLock(lock: ObjectLockConfig | undefined): { objectLockEnabled?: true; objectLockDefaultRetention?: ObjectLockRetention } {
  if (!lock) return {};
  const days = Duration.days(lock.days);
  return { objectLockEnabled: true, objectLockDefaultRetention: lock.mode === 'compliance' ? ObjectLockRetention.compliance(days) : ObjectLockRetention.governance(days) };
}

/** A dataset name becomes part of an IAM resource: `*`, `?` or `/` would widen a grant to other datasets. */
export function requireDatasetName(dataset: string): void {
  if (!NAME.test(dataset)) throw new Error(`"${dataset}" is not a dataset name (lower case letters, digits, "_" or "-", starting with a letter)`);
}
