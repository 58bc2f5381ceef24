import type { Contract } from '../contract/model.js';
import { isoSeconds, parseTemporal } from '../contract/temporal.js';
import type { ContractSource } from '../gate/contract-registry.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { notifyOnce } from '../gate/notify-once.js';
import type { Notice, Notifier } from '../notify/notifier.js';
import type { ObjectStore } from '../storage/object-store.js';
import { abandonedClaim, abandonedDrops, abandonedNotice } from './abandoned-drops.js';
import { inspectPartition, type PartitionInspection } from './inspect-partition.js';
import { probeNotice } from './probe-notice.js';
import { duePartitions, type DuePartition } from './sla-calendar.js';
import { expectedSince } from './expected-since.js';
import { dueReminder } from './sunset-reminders.js';

export interface ProbeDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly contracts: ContractSource;
  readonly layout: GateLayout;
  readonly now: number;
  /** How far back deadlines are checked; a partition missed longer ago has been paged already. */
  readonly lookbackHours?: number;
  /**
   * Where the bucket keeps its registry, for contracts read from files (the CLI over a serve's
   * lake): their registration time says since when they are expected. @default none is read
   */
  readonly registryPrefix?: string;
  /** Staged files with no marker this long are an abandoned drop, reported once. @default 24 */
  readonly abandonedAfterHours?: number;
}

export type PartitionStatus = 'published' | 'waiting' | 'missed';

export interface ProbedPartition {
  readonly contract: string;
  readonly version: string;
  readonly partition: string;
  readonly deadline: string;
  readonly status: PartitionStatus;
  readonly detail: string;
  /** What this run sent for the partition: at most one of each, ever. */
  readonly sent: readonly ('sla_missed' | 'sla_recovered' | 'stale')[];
}

export interface ProbeReport {
  readonly checked_at: string;
  readonly partitions: readonly ProbedPartition[];
  /** Drops left in staging without a marker; `sent` when this run told the owner. */
  readonly abandoned: readonly { readonly contract: string; readonly version: string; readonly partition: string; readonly files: number; readonly sent: boolean }[];
  /** Sunset reminders sent by this run. */
  readonly reminders: readonly { readonly contract: string; readonly version: string; readonly sunset: string; readonly days_before: number }[];
}

const DEFAULT_LOOKBACK_HOURS = 24;

/**
 * The clock SLA probe: for every partition a live contract expected by now, is it published?
 * A miss pages the owner once (a conditional create under `_gate/sla/` is the memory), a late
 * publish sends one recovery notice, and published data that was already stale when due sends
 * one `stale` notice.
 */
export async function runProbe(deps: ProbeDeps): Promise<ProbeReport> {
  const from = deps.now - (deps.lookbackHours ?? DEFAULT_LOOKBACK_HOURS) * 3_600_000;
  const partitions: ProbedPartition[] = [];
  const reminders: ProbeReport['reminders'][number][] = [];
  const contracts = (await deps.contracts.current()).all();
  for (const contract of contracts.filter((c) => isExpected(c, deps.now))) {
    const since = await expectedSince(deps.store, deps.layout, contract, deps.now, deps.registryPrefix);
    for (const due of duePartitions(contract.sla!, contract.produces.partition, { from: Math.max(from, since), to: deps.now })) {
      partitions.push(await probePartition(deps, contract, due));
    }
  }
  for (const contract of contracts) {
    const reminder = dueReminder(contract, deps.now, deps.layout);
    if (reminder && (await sendOnce(deps, reminder.claim, reminder.notice))) {
      reminders.push({ contract: contract.name, version: `v${contract.version.major}`, sunset: contract.sunset!, days_before: reminder.daysBefore });
    }
  }
  const abandoned = [];
  for (const contract of contracts) abandoned.push(...(await reportAbandoned(deps, contract)));
  return { checked_at: isoSeconds(deps.now), partitions, abandoned, reminders };
}

/** Retired versions, and deprecated ones past their sunset, expect nothing any more. */
export function isExpected(contract: Contract, now: number): boolean {
  if (!contract.sla || contract.status === 'retired') return false;
  const sunset = contract.sunset === undefined ? undefined : parseTemporal(contract.sunset, 'date');
  return sunset === undefined || now < sunset;
}

async function probePartition(deps: ProbeDeps, contract: Contract, due: DuePartition): Promise<ProbedPartition> {
  const address = { dataset: contract.name, major: contract.version.major, partition: due.path };
  const seen = await inspectPartition(deps.store, deps.layout, address);
  const status: PartitionStatus = seen.published ? 'published' : deps.now < due.pageAfter ? 'waiting' : 'missed';
  const sent: ProbedPartition['sent'][number][] = [];
  const claimOf = (kind: ProbedPartition['sent'][number]) => `${deps.layout.state}sla/${contract.name}/v${contract.version.major}/${due.path}/${kind}.json`;
  const send = async (kind: ProbedPartition['sent'][number]) => {
    if (await sendOnce(deps, claimOf(kind), probeNotice(kind, contract, due, seen, deps.store.location))) sent.push(kind);
  };
  if (status === 'missed') await send('sla_missed');
  if (seen.published && seen.published.at > due.pageAfter && (await deps.store.head(claimOf('sla_missed')))) await send('sla_recovered');
  if (seen.published && isStale(contract, due, seen)) await send('stale');
  return { contract: contract.name, version: `v${contract.version.major}`, partition: due.path, deadline: isoSeconds(due.deadline), status, detail: seen.detail, sent };
}

/** The data SLA at the clock SLA's moment: how old the newest value was when it was due (or published, if later). */
function isStale(contract: Contract, due: DuePartition, seen: PartitionInspection): boolean {
  const maxLag = contract.sla?.maxLagHours;
  const newest = seen.published?.newest;
  if (maxLag === undefined || newest === undefined || !seen.published) return false;
  return Math.max(due.deadline, seen.published.at) - newest > maxLag * 3_600_000;
}

async function reportAbandoned(deps: ProbeDeps, contract: Contract): Promise<ProbeReport['abandoned'][number][]> {
  const drops = await abandonedDrops(deps.store, deps.layout, contract, deps.now, (deps.abandonedAfterHours ?? 24) * 3_600_000);
  const reported = [];
  for (const drop of drops) {
    const sent = await sendOnce(deps, abandonedClaim(deps.layout, contract, drop), abandonedNotice(contract, drop, deps.layout, deps.now, deps.store.location));
    reported.push({ contract: contract.name, version: `v${contract.version.major}`, partition: drop.partition, files: drop.files, sent });
  }
  return reported;
}

/** At most one of each notice per partition, however often the probe runs. */
function sendOnce(deps: ProbeDeps, claim: string, notice: Notice): Promise<boolean> {
  return notifyOnce(deps.store, deps.notifier, claim, notice, deps.now);
}
