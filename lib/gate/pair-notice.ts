import type { Notice, Severity } from '../notify/notifier.js';
import type { Decision } from './decision.js';
import { describeAddress } from './drop-link.js';
import { gateNotice, verdictOf } from './gate-notice.js';
import { statePrefix, type GateLayout } from './gate-layout.js';
import { orderSides } from './linked-pair.js';

const RANK: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };

/** One claim for the pair, whichever side's carry-out gets to it first: the owner hears of a linked drop once. */
export function pairClaimKey(layout: GateLayout, a: Decision, b: Decision): string {
  const [first, second] = orderSides(a, b);
  return `${statePrefix(layout, 'notices', first.address)}${first.tag}+v${second.address.major}-${second.tag}.json`;
}

/**
 * The one notice on a linked drop: both verdicts in the subject and first lines, then each
 * side's own notice as a single drop would have had it. Undefined when neither side would have
 * one (both markers were repeats).
 */
export function pairNotice(a: Decision, b: Decision, layout: GateLayout, location: string): Notice | undefined {
  const [first, second] = orderSides(a, b);
  const notices = [gateNotice(first, layout, location), gateNotice(second, layout, location)];
  const [one, two] = notices;
  if (!one || !two) return one ?? two;
  const both = first.outcome === 'publish' && second.outcome === 'publish';
  const verdicts = [first, second].map((d) => `v${d.address.major} ${verdictOf(d)}`).join(', ');
  const partition = first.address.partition === second.address.partition ? first.address.partition : `${first.address.partition}+${second.address.partition}`;
  const lines = [
    `Linked drop (dual-write): ${both ? 'both sides passed and both are published' : 'published only when both sides pass, so neither is published'}.`,
    ...[first, second].map((d) => `  ${describeAddress(d.address)}: ${verdictOf(d)}: ${d.report.summary}`),
    '',
    ...notices.flatMap((n, i) => [`--- ${describeAddress([first, second][i]!.address)} ---`, n!.body]),
  ];
  const severity = notices.reduce<Severity>((worst, n) => (RANK[n!.attributes.severity] > RANK[worst] ? n!.attributes.severity : worst), 'info');
  return {
    subject: `[contract-gate] ${first.address.dataset} v${first.address.major}+v${second.address.major} ${partition} linked: ${verdicts}`.slice(0, 100),
    body: `${lines.join('\n')}\n`,
    attributes: {
      ...one.attributes,
      version: `v${first.address.major}+v${second.address.major}`,
      outcome: notices.some((n) => n!.attributes.outcome === 'quarantined') ? 'quarantined' : one.attributes.outcome,
      severity,
      partition,
      drop: `${first.tag}+${second.tag}`,
      attempt: `${first.attempt}+${second.attempt}`,
    },
  };
}
