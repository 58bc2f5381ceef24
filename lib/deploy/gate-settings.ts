import { join as joinPath } from 'node:path';
import { Duration, RemovalPolicy, Size, SizeRoundingBehavior, Token } from 'aws-cdk-lib';
import { Runtime } from 'aws-cdk-lib/aws-lambda';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { derivedFanoutLimits } from '../fanout/fanout-limits.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';
import { ConfigFields } from './config-fields.js';
import { contractFilesOf } from './contracts-asset.js';
import type { ContractGateProps } from './contract-gate-props.js';
import { BUCKET_NAME, EMAIL, MARKER, MIN_STATE_RETENTION_DAYS, PREFIX, RETENTION_DAYS, readPrefixes, type FanoutConfig, type GatePrefixes, type ObjectLockConfig } from './environment-config.js';
import { PROJECT_ROOT } from './gate-function.js';

/** The retention and lock settings only a bucket the gate creates takes. */
export interface CreatedBucketSettings {
  readonly bucketName?: string;
  readonly quarantineRetention: Duration;
  readonly stateRetention: Duration;
  readonly noncurrentVersionRetention: Duration;
  readonly stagingExpiration?: Duration;
  readonly objectLock?: ObjectLockConfig;
}

/** ContractGateProps checked, with every default filled in: what the constructs are built from. */
export interface GateSettings {
  readonly gateName: string;
  readonly namePrefix?: string;
  readonly prefixes: GatePrefixes;
  readonly marker: string;
  /** With contracts from the registry; undefined with bundled ones. */
  readonly registry?: { readonly prefix: string; readonly refresh: Duration };
  /** The contract files the functions ship with, when contracts are bundled. */
  readonly contractFiles?: readonly string[];
  readonly alertEmails: readonly string[];
  readonly probeInterval: Duration;
  readonly logRetention: RetentionDays;
  readonly removalPolicy: RemovalPolicy;
  readonly runtime: Runtime;
  readonly validateMemoryMb: number;
  readonly validateTimeout: Duration;
  readonly validateMaxConcurrency: number;
  readonly queueAgeAlarm: Duration;
  readonly abandonedAfterHours: number;
  /** Undefined for an existing bucket. */
  readonly createdBucket?: CreatedBucketSettings;
  /** Undefined when the fan-out is off. */
  readonly fanout?: FanoutConfig & { readonly bucketEventBridge: 'enable' | 'enabled-by-owner' };
}

const GATE_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NAME_PREFIX = /^[a-z][a-z0-9-]{0,39}$/;
const CREATED_BUCKET_ONLY = ['bucketName', 'quarantineRetention', 'stateRetention', 'noncurrentVersionRetention', 'stagingExpiration', 'objectLock'] as const;

/**
 * Checks `props` and fills in the defaults. Throws one ConfigError naming every prop that is
 * wrong, what was expected and how to fix it. `defaultGateName` is the construct's unique id;
 * `contractsDirectory` where bundled contracts are found when `bundledContracts` is absent.
 */
export function gateSettings(props: ContractGateProps, defaultGateName: string, where: string, contractsDirectory = joinPath(PROJECT_ROOT, 'contracts')): GateSettings {
  const fields = new ConfigFields(where);
  const existingBucket = props.bucket !== undefined;
  const prefixes = readPrefixes(fields, props.prefixes);
  const validateTimeout = duration(fields, props.validateTimeout, 'validateTimeout', Duration.minutes(5), [10, 900], 'seconds');
  const validateMemoryMb = mebibytes(fields, props.validateMemorySize, 'validateMemorySize', 1769, 128, 10_240);
  if (existingBucket) {
    for (const key of CREATED_BUCKET_ONLY) {
      if (props[key] !== undefined) fields.problem(key, `applies to a bucket the gate creates; an existing bucket keeps its owner's ${key === 'objectLock' ? 'Object Lock (aws s3api put-object-lock-configuration, and the audit statements of README "The audit trail")' : 'name, lifecycle rules and retention'}: remove ${key}, or leave out bucket`);
    }
  }
  if (props.topic !== undefined && (props.alertEmails?.length ?? 0) > 0) {
    fields.problem('alertEmails', 'subscribes addresses to a topic the gate creates; an existing topic\'s subscriptions are its owner\'s: subscribe them on that topic, or leave out topic');
  }
  const settings: GateSettings = {
    gateName: props.gateName === undefined || Token.isUnresolved(props.gateName) ? (props.gateName ?? defaultGateName) : fields.string(props.gateName, 'gateName', defaultGateName, GATE_NAME, '1-64 characters of A-Z, a-z, 0-9, "-" and "_"'),
    ...optional('namePrefix', props.namePrefix === undefined ? undefined : fields.string(props.namePrefix, 'namePrefix', 'x', NAME_PREFIX, '1-40 characters of a-z, 0-9 and "-", starting with a letter')),
    prefixes,
    marker: fields.string(props.marker, 'marker', DEFAULT_LAYOUT.marker, MARKER, 'a file name without "/"'),
    ...readContracts(fields, props, prefixes, contractsDirectory),
    alertEmails: fields.strings(props.alertEmails, 'alertEmails', EMAIL, 'an e-mail address'),
    probeInterval: duration(fields, props.probeInterval, 'probeInterval', Duration.minutes(5), [1, 1440], 'minutes'),
    logRetention: fields.oneOf(props.logRetention, 'logRetention', RetentionDays.ONE_MONTH, RETENTION_DAYS) as RetentionDays,
    removalPolicy: props.removalPolicy ?? RemovalPolicy.RETAIN,
    runtime: props.runtime ?? Runtime.NODEJS_22_X,
    validateMemoryMb,
    validateTimeout,
    validateMaxConcurrency: fields.integer(props.validateMaxConcurrency, 'validateMaxConcurrency', 10, 2, 1000),
    queueAgeAlarm: duration(fields, props.queueAgeAlarm, 'queueAgeAlarm', Duration.hours(1), [1, 1440], 'minutes'),
    abandonedAfterHours: duration(fields, props.abandonedAfter, 'abandonedAfter', Duration.hours(24), [1, 8760], 'hours').toHours(),
    ...optional('createdBucket', existingBucket ? undefined : createdBucket(fields, props)),
    ...optional('fanout', readFanout(fields, props, { timeoutSeconds: validateTimeout.toSeconds(), memoryMb: validateMemoryMb })),
  };
  fields.check();
  return settings;
}

/** `{ [key]: value }`, or nothing for undefined: optional settings stay absent, not undefined. */
function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** A Duration of whole `unit`s within `range`; a problem naming the prop otherwise. */
function duration(fields: ConfigFields, value: Duration | undefined, path: string, fallback: Duration, range: readonly [number, number], unit: 'seconds' | 'minutes' | 'hours' | 'days'): Duration {
  if (value === undefined) return fallback;
  const amount = { seconds: () => value.toSeconds({ integral: false }), minutes: () => value.toMinutes({ integral: false }), hours: () => value.toHours({ integral: false }), days: () => value.toDays({ integral: false }) }[unit]();
  if (Number.isInteger(amount) && amount >= range[0] && amount <= range[1]) return value;
  fields.problem(path, `expected whole ${unit} from ${range[0]} to ${range[1]} (Duration.${unit}(n)), got ${value.toHumanString()}`);
  return fallback;
}

function mebibytes(fields: ConfigFields, value: Size | undefined, path: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  const mib = value.toMebibytes({ rounding: SizeRoundingBehavior.NONE });
  if (Number.isInteger(mib) && mib >= min && mib <= max) return mib;
  fields.problem(path, `expected whole mebibytes from ${min} to ${max} (Size.mebibytes(n)), got ${mib} MiB`);
  return fallback;
}

function createdBucket(fields: ConfigFields, props: ContractGateProps): CreatedBucketSettings {
  const days = (value: Duration | undefined, path: string, fallback: number, min: number) => duration(fields, value, path, Duration.days(fallback), [min, 36_500], 'days');
  const lock = props.objectLock;
  return {
    ...optional('bucketName', props.bucketName === undefined || Token.isUnresolved(props.bucketName) ? props.bucketName : fields.string(props.bucketName, 'bucketName', '', BUCKET_NAME, 'an S3 bucket name')),
    quarantineRetention: days(props.quarantineRetention, 'quarantineRetention', 90, 1),
    stateRetention: days(props.stateRetention, 'stateRetention', 30, MIN_STATE_RETENTION_DAYS),
    noncurrentVersionRetention: days(props.noncurrentVersionRetention, 'noncurrentVersionRetention', 30, 1),
    ...optional('stagingExpiration', props.stagingExpiration === undefined ? undefined : days(props.stagingExpiration, 'stagingExpiration', 30, 2)),
    ...optional('objectLock', lock === undefined ? undefined : {
      mode: fields.choice(lock.mode, 'objectLock.mode', 'governance', ['governance', 'compliance'] as const),
      days: days(lock.retention, 'objectLock.retention', 365, 1).toDays(),
    }),
  };
}

/** Registry or bundled contracts; the bundled ones' files, of which there must be at least one. */
function readContracts(fields: ConfigFields, props: ContractGateProps, prefixes: GatePrefixes, contractsDirectory: string): Pick<GateSettings, 'registry' | 'contractFiles'> {
  const contracts = props.contracts ?? { source: 'registry' as const };
  const source = fields.choice(contracts.source, 'contracts.source', 'registry', ['bundled', 'registry'] as const);
  if (source === 'bundled') return { contractFiles: bundledFiles(fields, props.bundledContracts, contractsDirectory) };
  if (props.bundledContracts !== undefined) {
    fields.problem('bundledContracts', 'ships only with contracts.source "bundled"; this gate reads its contracts from the registry: set contracts: { source: "bundled" }, or publish them (contract-gate publish) and leave out bundledContracts');
  }
  const registry = contracts as { prefix?: string; refreshInterval?: Duration };
  const prefix = fields.string(registry.prefix, 'contracts.prefix', DEFAULT_REGISTRY_PREFIX, PREFIX, 'a key prefix of whole segments ending in "/", such as "_contracts/"');
  // A registry inside another area would take that area's grants and lifecycle (state expires).
  for (const [area, other] of Object.entries(prefixes)) {
    if (prefix.startsWith(other) || other.startsWith(prefix)) fields.problem('contracts.prefix', `"${prefix}" and prefixes.${area} "${other}" overlap: the registry needs a prefix of its own`);
  }
  return { registry: { prefix, refresh: duration(fields, registry.refreshInterval, 'contracts.refreshInterval', Duration.seconds(10), [1, 3600], 'seconds') } };
}

/**
 * The files of the bundled contracts, from where each was loaded (loadContractDirectory stamps
 * it): the functions read files, so a contract made in code, with no file, would not ship. Without
 * `bundledContracts`, the `*.yaml` of `contracts/` beside the project, as the repository's app
 * has them. No contract at all would deploy a gate that refuses every drop.
 */
function bundledFiles(fields: ConfigFields, contracts: ContractGateProps['bundledContracts'], directory: string): readonly string[] {
  if (contracts === undefined) {
    const files = contractFilesOf(directory);
    if (files.length === 0) fields.problem('bundledContracts', `contracts.source "bundled" ships contracts with the functions, but none were given and ${directory} has no *.yaml: pass bundledContracts (loadContractDirectory), or use contracts.source "registry"`);
    return files;
  }
  if (contracts.length === 0) fields.problem('bundledContracts', 'is empty: contracts.source "bundled" ships at least one contract with the functions (loadContractDirectory), or use contracts.source "registry"');
  contracts.forEach((contract, i) => {
    if (!contract.origin) fields.problem(`bundledContracts[${i}]`, `contract "${contract.name}" has no file: the functions read contracts from files; load it with loadContractDirectory (or parse it from a file and set origin.location)`);
  });
  return contracts.flatMap((contract) => (contract.origin ? [contract.origin.location] : []));
}

/** Off only when asked; on an existing bucket, only once it is said who turns on its EventBridge delivery. */
function readFanout(fields: ConfigFields, props: ContractGateProps, sizing: { timeoutSeconds: number; memoryMb: number }): GateSettings['fanout'] {
  const raw = props.fanout ?? {};
  if (!fields.boolean(raw.enabled, 'fanout.enabled', true)) return undefined;
  const derived = derivedFanoutLimits(sizing);
  const maxBytes = raw.maxBytes === undefined ? derived.maxBytes : raw.maxBytes.toBytes();
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 1024 ** 2) fields.problem('fanout.maxBytes', `expected at least Size.mebibytes(1), got ${maxBytes} bytes`);
  const existing = props.bucket !== undefined;
  const bucketEventBridge = fields.choice(raw.bucketEventBridge, 'fanout.bucketEventBridge', 'enable', ['enable', 'enabled-by-owner'] as const);
  if (existing && raw.bucketEventBridge === undefined) {
    fields.problem('fanout.bucketEventBridge', 'required with an existing bucket: the fan-out starts from S3\'s EventBridge delivery, which is bucket-wide. "enable" turns it on for the whole bucket (every object event of it then reaches EventBridge); "enabled-by-owner" says its owner already has; or set fanout.enabled false');
  }
  if (!existing && raw.bucketEventBridge === 'enabled-by-owner') fields.problem('fanout.bucketEventBridge', 'the gate creates this bucket and turns on its EventBridge delivery itself: "enabled-by-owner" is for an existing bucket');
  return {
    enabled: true,
    maxFiles: fields.integer(raw.maxFiles, 'fanout.maxFiles', derived.maxFiles, 1, 1_000_000),
    maxBytes,
    // The Distributed Map's own limit is 10,000 child executions at once.
    mapConcurrency: fields.integer(raw.mapConcurrency, 'fanout.mapConcurrency', 40, 1, 10_000),
    bucketEventBridge,
  };
}
