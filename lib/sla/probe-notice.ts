import type { Contract } from '../contract/model.js';
import { isoSeconds } from '../contract/temporal.js';
import type { Notice, Severity } from '../notify/notifier.js';
import type { PartitionInspection } from './inspect-partition.js';
import type { DuePartition } from './sla-calendar.js';

type ProbeOutcome = 'sla_missed' | 'sla_recovered' | 'stale';

const WORDING: Record<ProbeOutcome, { verdict: string; severity: Severity }> = {
  sla_missed: { verdict: 'MISSED its SLA', severity: 'critical' },
  sla_recovered: { verdict: 'published late: SLA recovered', severity: 'info' },
  stale: { verdict: 'published STALE data', severity: 'warning' },
};

export function probeNotice(outcome: ProbeOutcome, contract: Contract, due: DuePartition, seen: PartitionInspection, location: string): Notice {
  const dataset = `${contract.name} v${contract.version.major}`;
  const { verdict, severity } = WORDING[outcome];
  const sla = contract.sla;
  const lines = [
    `Dataset:   ${dataset} (contract ${contract.version.text}, owner ${contract.owner.team})`,
    `Partition: ${due.path}`,
    `Due by:    ${isoSeconds(due.deadline)}${sla?.arrivalBy ? ` (${sla.arrivalBy} ${sla.timezone ?? 'UTC'})` : ''}${due.pageAfter > due.deadline ? `, paged after ${isoSeconds(due.pageAfter)}` : ''}`,
    `State:     ${seen.detail}`,
    ...(outcome === 'stale' && sla?.maxLagHours !== undefined ? [`Freshness: the newest ${sla.freshnessColumn} was older than ${sla.maxLagHours} hours when the partition was due`] : []),
    `Bucket:    ${location}`,
  ];
  return {
    subject: `[contract-gate] ${dataset} ${due.path} ${verdict}`,
    body: `${lines.join('\n')}\n`,
    attributes: { contract: contract.name, version: `v${contract.version.major}`, owner: contract.owner.team, outcome, severity, partition: due.path },
  };
}
