import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { derivedFanoutLimits } from '../fanout/fanout-limits.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';
import { ConfigError, ConfigFields, join } from './config-fields.js';

/** Where the gate's bucket comes from: created by this stack, or an existing one by name. */
export type BucketSource = { readonly mode: 'create'; readonly name?: string } | { readonly mode: 'import'; readonly name: string };

/** The bucket layout the functions get as environment variables (see lambdas/gate-environment.ts). */
export interface GatePrefixes {
  readonly staging: string;
  readonly published: string;
  readonly quarantine: string;
  readonly state: string;
}

/**
 * Partitions past either limit, and those whose check does not fit in one validate invocation,
 * are validated by a Step Functions Distributed Map (lib/fanout/). On unless `enabled: false`.
 */
export interface FanoutConfig {
  /** @default true */
  readonly enabled: boolean;
  /** More staged files than this fan out. @default 200 */
  readonly maxFiles: number;
  /**
   * More staged bytes than this fan out. @default derived from the validate function's timeout
   * and memory (derivedFanoutLimits in lib/fanout/fanout-limits.ts): 2.16 GB at 300 s and 1,769 MB
   */
  readonly maxBytes: number;
  /** Files checked at once by the Distributed Map (its MaxConcurrency). @default 40 */
  readonly mapConcurrency: number;
  /**
   * Who turns on an imported bucket's EventBridge delivery, which starts the fan-out: "enable"
   * (this stack, bucket-wide) or "enabled-by-owner". Required with `bucket.import`. @default none
   */
  readonly bucketEventBridge?: 'enable' | 'enabled-by-owner';
}

/**
 * Where the functions find their contracts: bundled into the deployment from `contracts/`, or
 * read from the registry producers publish to on the gate's bucket (lib/registry/).
 */
export interface ContractsConfig {
  /** @default 'registry' */
  readonly source: 'bundled' | 'registry';
  /** The registry's key prefix in the gate's bucket. @default `_contracts/` */
  readonly prefix: string;
  /** How stale a function's view of the registry may get before it lists it again. @default 10 */
  readonly refreshSeconds: number;
}

/** One deployment of the gate, read from cdk.json context `environments.<name>`. */
export interface EnvironmentConfig {
  readonly name: string;
  readonly bucket: BucketSource;
  readonly prefixes: GatePrefixes;
  /** @default `_READY` */
  readonly marker: string;
  /** Subscribed to every notice unfiltered: they get the alarms. @default none */
  readonly alertEmails: readonly string[];
  /** @default 5 */
  readonly probeIntervalMinutes: number;
  /** A CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, ...). @default 30 */
  readonly logRetentionDays: RetentionDays;
  /** @default 90 */
  readonly quarantineRetentionDays: number;
  /** @default 30 */
  readonly stateRetentionDays: number;
  /** @default 30 */
  readonly noncurrentVersionRetentionDays: number;
  /** @default 1769 (one full vCPU: the engine is single-threaded, ~1M Parquet rows/s per core) */
  readonly validateMemoryMb: number;
  /** @default 300 */
  readonly validateTimeoutSeconds: number;
  /** Concurrent validations at most (the SQS event source's maximum concurrency, 2-1000). @default 10 */
  readonly validateMaxConcurrency: number;
  /** The ready queue's oldest message older than this raises an alarm. @default 60 */
  readonly queueAgeAlarmMinutes: number;
  /** Staged files with no marker this long are reported to their owner as an abandoned drop. @default 24 */
  readonly abandonedAfterHours: number;
  /** Deletes staged files this many days old, abandoned or not (a lifecycle rule). @default none: staging is never expired */
  readonly stagingExpirationDays?: number;
  /** @default enabled, with limits derived from validateTimeoutSeconds and validateMemoryMb */
  readonly fanout: FanoutConfig;
  /** @default `{ source: 'registry' }`: producers publish their contracts, owners subscribe as they do */
  readonly contracts: ContractsConfig;
  /** Object Lock on a created bucket, every new object version retained this long (see GateBucketProps.objectLock). @default none */
  readonly objectLock?: ObjectLockConfig;
}

/** S3 Object Lock: `governance` (a holder of s3:BypassGovernanceRetention may still delete) or `compliance` (no one may, root included). */
export interface ObjectLockConfig {
  readonly mode: 'governance' | 'compliance';
  readonly days: number;
}

const ENVIRONMENT_KEYS = [
  'bucket', 'prefixes', 'marker', 'alertEmails', 'probeIntervalMinutes', 'logRetentionDays', 'quarantineRetentionDays',
  'stateRetentionDays', 'noncurrentVersionRetentionDays', 'validateMemoryMb', 'validateTimeoutSeconds',
  'validateMaxConcurrency', 'queueAgeAlarmMinutes', 'abandonedAfterHours', 'stagingExpirationDays', 'objectLock',
] as const;

const ENV_NAME = /^[a-z][a-z0-9-]{0,19}$/;
// Whole path segments, each ending in `/`; no `*`, which IAM would read as a wildcard.
export const PREFIX = /^(?:[A-Za-z0-9_.!'()=-]+\/)+$/;
export const MARKER = /^[A-Za-z0-9_.!'()=-]+$/;
export const BUCKET_NAME = /^(?!.*\.\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const RETENTION_DAYS = Object.values(RetentionDays).filter((v): v is number => typeof v === 'number' && v !== RetentionDays.INFINITE);
// A message can sit in the dead-letter queue 14 days and be redriven; the decision and notice
// records under the state prefix must still be there to make that delivery converge, not re-run.
export const MIN_STATE_RETENTION_DAYS = 15;

/**
 * The configuration of the environment `name` from the `environments` context object. Throws one
 * error listing every problem; an unknown or missing name lists the known ones.
 */
export function environmentConfig(environments: unknown, name: unknown): EnvironmentConfig {
  if (typeof environments !== 'object' || environments === null || Array.isArray(environments)) {
    throw new ConfigError('cdk.json has no "environments" context object: add one with an entry per environment (see lib/deploy/environment-config.ts)');
  }
  const known = Object.keys(environments).sort();
  if (typeof name !== 'string' || name === '') {
    throw new ConfigError(`choose an environment with -c env=<name>; known environments: ${known.join(', ')}`);
  }
  if (!Object.hasOwn(environments, name)) {
    throw new ConfigError(`unknown environment "${name}"; known environments: ${known.join(', ')} (cdk.json context "environments")`);
  }
  const fields = new ConfigFields(`cdk.json context "environments.${name}"`);
  if (!ENV_NAME.test(name)) fields.problem('(name)', 'an environment name is 1-20 characters of a-z, 0-9 and -, starting with a letter: it is part of every resource name');
  const { fanout, contracts, entry } = splitSections((environments as Record<string, unknown>)[name]);
  const raw = fields.object(entry, '', ENVIRONMENT_KEYS) ?? {};
  const prefixes = readPrefixes(fields, raw.prefixes);
  const base = {
    name,
    bucket: readBucket(fields, raw.bucket),
    prefixes,
    marker: fields.string(raw.marker, 'marker', DEFAULT_LAYOUT.marker, MARKER, 'a file name without "/"'),
    alertEmails: fields.strings(raw.alertEmails, 'alertEmails', EMAIL, 'an e-mail address'),
    probeIntervalMinutes: fields.integer(raw.probeIntervalMinutes, 'probeIntervalMinutes', 5, 1, 1440),
    logRetentionDays: fields.oneOf(raw.logRetentionDays, 'logRetentionDays', RetentionDays.ONE_MONTH, RETENTION_DAYS) as RetentionDays,
    quarantineRetentionDays: fields.integer(raw.quarantineRetentionDays, 'quarantineRetentionDays', 90, 1, 36_500),
    stateRetentionDays: fields.integer(raw.stateRetentionDays, 'stateRetentionDays', 30, MIN_STATE_RETENTION_DAYS, 36_500),
    noncurrentVersionRetentionDays: fields.integer(raw.noncurrentVersionRetentionDays, 'noncurrentVersionRetentionDays', 30, 1, 36_500),
    validateMemoryMb: fields.integer(raw.validateMemoryMb, 'validateMemoryMb', 1769, 128, 10_240),
    // Lambda's limit; the queue's visibility timeout is six times this.
    validateTimeoutSeconds: fields.integer(raw.validateTimeoutSeconds, 'validateTimeoutSeconds', 300, 10, 900),
    validateMaxConcurrency: fields.integer(raw.validateMaxConcurrency, 'validateMaxConcurrency', 10, 2, 1000),
    queueAgeAlarmMinutes: fields.integer(raw.queueAgeAlarmMinutes, 'queueAgeAlarmMinutes', 60, 1, 1440),
    abandonedAfterHours: fields.integer(raw.abandonedAfterHours, 'abandonedAfterHours', 24, 1, 8760),
    ...(raw.stagingExpirationDays === undefined ? {} : { stagingExpirationDays: fields.integer(raw.stagingExpirationDays, 'stagingExpirationDays', 30, 2, 36_500) }),
    ...(raw.objectLock === undefined ? {} : { objectLock: readObjectLock(fields, raw.objectLock, raw.bucket) }),
    contracts: readContracts(fields, contracts, prefixes),
  };
  const config: EnvironmentConfig = { ...base, fanout: readFanout(fields, fanout, base) };
  if (base.bucket.mode === 'import') refuseCreatedBucketSettings(fields, raw, config.fanout);
  fields.check();
  return config;
}

/**
 * The optional `fanout` and `contracts` sections are taken out before the environment's keys are
 * checked, and read on their own: an environment without them reads exactly as before.
 */
function splitSections(entry: unknown): { fanout: unknown; contracts: unknown; entry: unknown } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { fanout: undefined, contracts: undefined, entry };
  const { fanout, contracts, ...rest } = entry as Record<string, unknown>;
  return { fanout, contracts, entry: rest };
}

function readContracts(fields: ConfigFields, value: unknown, prefixes: GatePrefixes): ContractsConfig {
  const raw = value === undefined ? {} : fields.object(value, 'contracts', ['source', 'prefix', 'refreshSeconds']) ?? {};
  const source = fields.choice(raw.source, 'contracts.source', 'registry', ['bundled', 'registry'] as const);
  const prefix = fields.string(raw.prefix, 'contracts.prefix', DEFAULT_REGISTRY_PREFIX, PREFIX, 'a key prefix of whole segments ending in "/", such as "_contracts/"');
  const refreshSeconds = fields.integer(raw.refreshSeconds, 'contracts.refreshSeconds', 10, 1, 3600);
  if (source === 'bundled') {
    for (const key of ['prefix', 'refreshSeconds'] as const) {
      if (raw[key] !== undefined) fields.problem(`contracts.${key}`, 'applies to "source": "registry" only; bundled contracts ship with the deployment');
    }
    return { source, prefix, refreshSeconds };
  }
  // A registry inside another area would take that area's grants and lifecycle (state expires).
  for (const [area, other] of Object.entries(prefixes)) {
    if (prefix.startsWith(other) || other.startsWith(prefix)) fields.problem('contracts.prefix', `"${prefix}" and prefixes.${area} "${other}" overlap: the registry needs a prefix of its own`);
  }
  return { source, prefix, refreshSeconds };
}

/** An absent section is `{}`: the fan-out on, with the limits one validate invocation was measured to handle. */
function readFanout(fields: ConfigFields, value: unknown, sizing: { validateTimeoutSeconds: number; validateMemoryMb: number }): FanoutConfig {
  const raw = value === undefined ? {} : fields.object(value, 'fanout', ['enabled', 'maxFiles', 'maxBytes', 'mapConcurrency', 'bucketEventBridge']) ?? {};
  const derived = derivedFanoutLimits({ timeoutSeconds: sizing.validateTimeoutSeconds, memoryMb: sizing.validateMemoryMb });
  return {
    ...(raw.bucketEventBridge === undefined ? {} : { bucketEventBridge: fields.choice(raw.bucketEventBridge, 'fanout.bucketEventBridge', 'enable', ['enable', 'enabled-by-owner'] as const) }),
    enabled: fields.boolean(raw.enabled, 'fanout.enabled', true),
    maxFiles: fields.integer(raw.maxFiles, 'fanout.maxFiles', derived.maxFiles, 1, 1_000_000),
    maxBytes: fields.integer(raw.maxBytes, 'fanout.maxBytes', derived.maxBytes, 1024 ** 2, Number.MAX_SAFE_INTEGER),
    // The Distributed Map's own limit is 10,000 child executions at once.
    mapConcurrency: fields.integer(raw.mapConcurrency, 'fanout.mapConcurrency', 40, 1, 10_000),
  };
}

/** Settings of a bucket this stack creates are errors with an imported one, not silently ignored. */
function refuseCreatedBucketSettings(fields: ConfigFields, raw: Record<string, unknown>, fanout: FanoutConfig): void {
  for (const key of ['quarantineRetentionDays', 'stateRetentionDays', 'noncurrentVersionRetentionDays', 'stagingExpirationDays'] as const) {
    if (raw[key] !== undefined) fields.problem(key, 'applies to a bucket this stack creates; an imported bucket keeps its owner\'s lifecycle rules: remove it, or add the rule to the bucket yourself');
  }
  if (fanout.enabled && fanout.bucketEventBridge === undefined) {
    fields.problem('fanout.bucketEventBridge', 'required with an imported bucket: the fan-out starts from S3\'s EventBridge delivery, which is bucket-wide. "enable" turns it on for the whole bucket; "enabled-by-owner" says its owner already has; or set fanout.enabled false');
  }
}

/** Object Lock is set when a bucket is created: an existing bucket's owner turns it on (PutObjectLockConfiguration). */
function readObjectLock(fields: ConfigFields, value: unknown, bucket: unknown): ObjectLockConfig {
  const raw = fields.object(value, 'objectLock', ['mode', 'days']) ?? {};
  const mode = fields.choice(raw.mode, 'objectLock.mode', 'governance', ['governance', 'compliance'] as const);
  const days = fields.integer(raw.days, 'objectLock.days', 365, 1, 36_500);
  if (typeof bucket === 'object' && bucket !== null && 'import' in bucket) {
    fields.problem('objectLock', 'applies to a bucket this stack creates; for an existing bucket its owner enables versioning and Object Lock on it (aws s3api put-object-lock-configuration) and adds the audit statements to its policy (README, "The audit trail")');
  }
  return { mode, days };
}

function readBucket(fields: ConfigFields, value: unknown): BucketSource {
  const raw = fields.object(value ?? { create: true }, 'bucket', ['create', 'name', 'import']);
  if (!raw) return { mode: 'create' };
  const name = (key: string) => fields.string(raw[key], join('bucket', key), '', BUCKET_NAME, 'an S3 bucket name');
  if (raw.import !== undefined) {
    if (raw.create !== undefined || raw.name !== undefined) fields.problem('bucket', 'either { "create": true, "name"?: ... } or { "import": "<bucket name>" }, not both');
    return { mode: 'import', name: name('import') };
  }
  if (raw.create !== true) fields.problem('bucket.create', 'expected true (or use { "import": "<bucket name>" } for an existing bucket)');
  return raw.name === undefined ? { mode: 'create' } : { mode: 'create', name: name('name') };
}

export function readPrefixes(fields: ConfigFields, value: unknown): GatePrefixes {
  const keys = ['staging', 'published', 'quarantine', 'state'] as const;
  const raw = value === undefined ? {} : fields.object(value, 'prefixes', keys) ?? {};
  const prefixes = Object.fromEntries(
    keys.map((key) => [key, fields.string(raw[key], `prefixes.${key}`, DEFAULT_LAYOUT[key], PREFIX, 'a key prefix of whole segments ending in "/", such as "staging/"')]),
  ) as unknown as GatePrefixes;
  // Nested or equal prefixes would let one area's grants and lifecycle rules reach into another.
  keys.forEach((a, i) => {
    for (const b of keys.slice(i + 1)) {
      if (prefixes[a].startsWith(prefixes[b]) || prefixes[b].startsWith(prefixes[a])) {
        fields.problem('prefixes', `${a} "${prefixes[a]}" and ${b} "${prefixes[b]}" overlap: each area needs a prefix of its own`);
      }
    }
  });
  return prefixes;
}
