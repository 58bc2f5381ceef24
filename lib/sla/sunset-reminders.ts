import type { Contract } from '../contract/model.js';
import { parseTemporal } from '../contract/temporal.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { Notice } from '../notify/notifier.js';

const DAY = 86_400_000;

/** Reminders go out 7 days and 1 day before a deprecated version's sunset, once each. */
export const REMINDER_DAYS = [7, 1] as const;

export interface DueReminder {
  readonly daysBefore: (typeof REMINDER_DAYS)[number];
  /** Where the probe remembers that this reminder was sent. */
  readonly claim: string;
  readonly notice: Notice;
}

/**
 * The reminder due now for a deprecated contract, if any: the nearest threshold already passed,
 * so a probe that was down for a day still sends the 1-day reminder rather than a stale 7-day one.
 */
export function dueReminder(contract: Contract, now: number, layout: GateLayout): DueReminder | undefined {
  if (contract.status !== 'deprecated' || contract.sunset === undefined) return undefined;
  const sunset = parseTemporal(contract.sunset, 'date');
  if (sunset === undefined || now >= sunset) return undefined;
  const daysBefore = [...REMINDER_DAYS].reverse().find((days) => now >= sunset - days * DAY);
  if (daysBefore === undefined) return undefined;
  const version = `v${contract.version.major}`;
  return {
    daysBefore,
    claim: `${layout.state}sunset/${contract.name}/${version}/${daysBefore}d.json`,
    notice: reminderNotice(contract, Math.ceil((sunset - now) / DAY)),
  };
}

function reminderNotice(contract: Contract, daysLeft: number): Notice {
  const version = `v${contract.version.major}`;
  const when = daysLeft === 1 ? 'tomorrow' : `in ${daysLeft} days`;
  const consumers = contract.consumers.map((c) => c.team);
  const lines = [
    `${contract.name} ${version} (contract ${contract.version.text}) is deprecated and will be retired on ${contract.sunset}, ${when}.`,
    `From then on the gate quarantines drops for ${contract.name} ${version} and the SLA probe stops expecting its partitions.`,
    '',
    `Owner:     ${contract.owner.team}`,
    `Consumers: ${consumers.length > 0 ? consumers.join(', ') : 'none registered'}`,
    'Producers: dual-write the successor version and move your jobs before the sunset.',
    'Consumers: read the successor version\'s published prefix before the sunset.',
  ];
  return {
    subject: `[contract-gate] ${contract.name} ${version} retires ${when} (${contract.sunset})`,
    body: `${lines.join('\n')}\n`,
    attributes: { contract: contract.name, version, owner: contract.owner.team, outcome: 'sunset_reminder', severity: 'warning' },
  };
}
