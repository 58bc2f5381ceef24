import type { Contract } from '../contract/model.js';

/**
 * What a ContractGate is made of: the fields of an environment in cdk.json (same names, units
 * and defaults, validated by the same reader), so a gate in one's own stack and the project's
 * own app are configured alike.
 */
export interface ContractGateProps {
  /** Names every resource (`contract-gate-<name>-validate`, ...): 1-20 of a-z, 0-9, -. @default 'gate' */
  readonly name?: string;
  /** A new bucket (optionally named), or an existing one by name. @default { create: true } */
  readonly bucket?: { readonly create: true; readonly name?: string } | { readonly import: string };
  /** @default staging/, published/, quarantine/, _gate/ */
  readonly prefixes?: { readonly staging?: string; readonly published?: string; readonly quarantine?: string; readonly state?: string };
  /** The completion marker's file name. @default '_READY' */
  readonly marker?: string;
  /**
   * Where the functions get contracts: the registry on the bucket (`contract-gate publish`), or
   * the `bundledContracts` shipped with the deployment. @default { source: 'registry' }
   */
  readonly contracts?: { readonly source: 'registry'; readonly prefix?: string; readonly refreshSeconds?: number } | { readonly source: 'bundled' };
  /** The contracts to ship with `contracts.source` "bundled" (see loadContractDirectory); their owners are subscribed at deploy time. @default none */
  readonly bundledContracts?: readonly Contract[];
  /** Subscribed to every notice unfiltered: they get the alarms. @default none */
  readonly alertEmails?: readonly string[];
  /** @default 5 */
  readonly probeIntervalMinutes?: number;
  /** A CloudWatch Logs retention (1, 3, 5, 7, 14, 30, 60, 90, ...). @default 30 */
  readonly logRetentionDays?: number;
  /** @default 90 */
  readonly quarantineRetentionDays?: number;
  /** At least 15: a redriven dead letter must still find its decision. @default 30 */
  readonly stateRetentionDays?: number;
  /** @default 30 */
  readonly noncurrentVersionRetentionDays?: number;
  /** @default 1769 (one full vCPU) */
  readonly validateMemoryMb?: number;
  /** @default 300 */
  readonly validateTimeoutSeconds?: number;
  /** Concurrent validations at most (2-1000). @default 10 */
  readonly validateMaxConcurrency?: number;
  /** The ready queue's oldest message older than this raises an alarm. @default 60 */
  readonly queueAgeAlarmMinutes?: number;
  /** Staged files with no marker this long are reported to their owner once, as an abandoned drop. @default 24 */
  readonly abandonedAfterHours?: number;
  /** Deletes staged files this many days old, abandoned or not (at least 2). @default none: staging is never expired */
  readonly stagingExpirationDays?: number;
  /**
   * Object Lock on the created bucket: every new object version (audit records included) cannot be
   * deleted or replaced for `days` (default 365); `compliance` binds even the root user. Applies
   * bucket-wide: noncurrent versions of staged and published files are kept as long too. @default none
   */
  readonly objectLock?: { readonly mode?: 'governance' | 'compliance'; readonly days?: number };
  /** Big partitions to a Step Functions Distributed Map (see the README for the limits). */
  readonly fanout?: { readonly enabled?: boolean; readonly maxFiles?: number; readonly maxBytes?: number; readonly mapConcurrency?: number };
}
