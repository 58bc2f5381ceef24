import { breakingTerms, PLACEHOLDER, TOPICS, type MigrationInput } from './migration-document.js';
import { skeletonPrompts } from './migration-prompts.js';

/**
 * The migration document as far as the contracts tell it: the seed's four headings, the breaking
 * changes diff finds, the consumers they hit and the old major's sunset. What only a human knows
 * (why, which models, the day the window opens, what consumers do) is left as TODO(migration)
 * placeholders, so the document is refused until someone writes it; with them filled, it passes.
 */
export function migrationSkeleton(input: MigrationInput): string {
  const { old, next } = input;
  const [from, to] = [old.version.major, next.version.major];
  const ask = skeletonPrompts(from, to);
  return [
    `# Migration: ${next.name} v${from} → v${to}`,
    '',
    `${next.name} ${next.version.text} replaces ${next.name} v${from} (${old.version.text}). Written by \`contract-gate diff --migration-skeleton\`;`,
    `\`check-compat\` and \`publish\` refuse v${to} until every placeholder below is written.`,
    '',
    `## ${TOPICS.changed.heading}`,
    '',
    ...changedLines(input),
    '',
    `Why: ${PLACEHOLDER} ${ask.why}`,
    '',
    `## ${TOPICS.affected.heading}`,
    '',
    hitLine(input),
    '',
    `- ${PLACEHOLDER} ${ask.models}`,
    '',
    `## ${TOPICS.timeline.heading}`,
    '',
    `- Window opens: ${PLACEHOLDER} ${ask.opens}, the day v${to} is first published; v${from} and v${to} are published side by side from then.`,
    sunsetLine(input),
    '',
    `## ${TOPICS.action.heading}`,
    '',
    `- ${PLACEHOLDER} ${ask.action}`,
    '',
  ].join('\n');
}

function changedLines(input: MigrationInput): string[] {
  const terms = breakingTerms(input.diff);
  if (terms.length === 0) return [`\`contract-gate diff\` finds no breaking change from v${input.old.version.major}.`];
  return [
    'Breaking changes, as `contract-gate diff` finds them:',
    '',
    ...terms.flatMap(({ term, changes }) => changes.map((c) => `- \`${term}\` (${c.change}): ${c.message}`)),
  ];
}

function hitLine(input: MigrationInput): string {
  const teams = [...new Set(input.diff.changes.filter((c) => c.class === 'breaking').flatMap((c) => c.consumers ?? []))];
  return teams.length === 0
    ? 'The contract lists no consumer these changes hit.'
    : `Consumers the contract lists that these changes hit: ${teams.join(', ')}.`;
}

function sunsetLine(input: MigrationInput): string {
  const { old } = input;
  const v = `v${old.version.major}`;
  if (old.status === 'deprecated' && old.sunset !== undefined) {
    return `- ${v} sunset: ${old.sunset} (the \`sunset\` of ${old.name} ${old.version.text}): from that day the gate quarantines every ${v} drop.`;
  }
  return `- ${v} sunset: ${PLACEHOLDER} ${skeletonPrompts(old.version.major, input.next.version.major).sunset}`;
}
