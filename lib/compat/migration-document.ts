import type { Contract } from '../contract/model.js';
import type { Change, ContractDiff } from './contract-diff.js';
import { MAX_VERSION_BYTES } from '../registry/registry-layout.js';
import { skeletonPrompts } from './migration-prompts.js';
import { markdownSections, withoutComments, type MarkdownLine, type MarkdownSection } from './markdown-sections.js';

/**
 * The migration document a new major comes with (seed 001, "Write the migration plan"): what
 * changed and why, the downstream models affected, the deprecation timeline and the action
 * consumers take. Pure: the caller reads the file and hands its text in.
 */
export interface MigrationInput {
  /** The previous major as it is now: deprecated, with the sunset that closes the window. */
  readonly old: Contract;
  readonly next: Contract;
  /** `diffContracts(old, next)`: its breaking changes are what the document must name. */
  readonly diff: ContractDiff;
  /**
   * Epoch milliseconds of the check, from the caller's clock: a sunset already reached leaves the
   * old major no window. Not given (the skeleton), dates are not held against today.
   */
  readonly now?: number;
}

/** What the skeleton leaves for a human: a document still holding it is refused. */
export const PLACEHOLDER = 'TODO(migration)';

/** The marker in any case: `todo(migration)` is as unfinished as the skeleton's own. */
const MARKER = /todo\(migration\)/i;

/** A line that only says "later": a section of nothing else is empty. */
const PLACEHOLDER_WORD = /^(?:tbd|tba|todo|wip|n\/a|na|none|nothing|-+|\.{3}|…|\?+)\.?$/i;

/**
 * The seed's four parts, found by a word of their heading so a team may word them its own way: a
 * word that starts with the stem (change, changes, changed; action, actions; affect, affected).
 */
export const TOPICS = {
  changed: { heading: 'What changed and why', words: /\bchang/i, word: '"change…"' },
  affected: { heading: 'Affected downstream models', words: /\baffect|\bdownstream/i, word: '"affect…" or "downstream"' },
  timeline: { heading: 'Deprecation timeline', words: /\btimeline|\bwindow|\bsunset/i, word: '"timeline", "window" or "sunset"' },
  action: { heading: 'Action required from consumers', words: /\baction/i, word: '"action…"' },
} as const;
type Topic = keyof typeof TOPICS;

const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;

/** `<name>_v<N>_to_v<M>.md`, the seed's `user_events_v1_to_v2.md`. */
export function migrationFileName(name: string, fromMajor: number, toMajor: number): string {
  return `${name}_v${fromMajor}_to_v${toMajor}.md`;
}

/**
 * What the document lacks, one sentence each; empty when it will do. A breaking change is named
 * by its column (or, for the whole dataset, the first word of its id: `grain`, `partition`), the
 * timeline must give the old major's sunset as its contract does and a date before it on which the
 * window opens, and no placeholder may be left. HTML comments count for nothing.
 */
export function migrationGaps(input: MigrationInput, document: string): string[] {
  // A comment does not render: what it says tells a reader nothing.
  const text = withoutComments(document);
  const sections = markdownSections(text);
  const owners = sectionOwners(sections);
  const found = (topic: Topic) => owners.get(topic);
  const gaps = (Object.keys(TOPICS) as Topic[]).flatMap((topic) => sectionGap(topic, found(topic), sections));
  const changed = found('changed');
  const timeline = found('timeline');
  if (changed) gaps.push(...unnamedChanges(input.diff, changed));
  gaps.push(...sunsetGaps(input, text, timeline));
  gaps.push(...placeholderGaps(text), ...promptGaps(input, text));
  return gaps;
}

/** The words a document must use to name each breaking change, once each, in the order diff lists them. */
export function breakingTerms(diff: ContractDiff): { term: string; changes: Change[] }[] {
  const terms = new Map<string, Change[]>();
  for (const change of diff.changes.filter((c) => c.class === 'breaking')) {
    const term = change.column ?? change.change.split('_')[0]!;
    terms.set(term, [...(terms.get(term) ?? []), change]);
  }
  return [...terms].map(([term, changes]) => ({ term, changes }));
}

/**
 * One heading per part: a heading that names several ("Changed, affected, timeline, action") is one
 * section, not four. A heading naming one part only is taken first; then the first one left.
 */
function sectionOwners(sections: readonly MarkdownSection[]): Map<Topic, MarkdownSection> {
  const topics = Object.keys(TOPICS) as Topic[];
  const matches = (s: MarkdownSection) => topics.filter((t) => TOPICS[t].words.test(s.title));
  const owners = new Map<Topic, MarkdownSection>();
  const taken = new Set<MarkdownSection>();
  for (const single of [true, false]) {
    for (const topic of topics) {
      const section = owners.has(topic) ? undefined : sections.find((s) => !taken.has(s) && matches(s).includes(topic) && (!single || matches(s).length === 1));
      if (section) [owners.set(topic, section), taken.add(section)];
    }
  }
  return owners;
}

function sectionGap(topic: Topic, section: MarkdownSection | undefined, sections: readonly MarkdownSection[]): string[] {
  const { heading, word } = TOPICS[topic];
  if (!section) {
    const shared = sections.find((s) => TOPICS[topic].words.test(s.title));
    const own = shared ? `; "${shared.title}" (line ${shared.line}) is another part's heading: each part needs a heading of its own` : '';
    return [`no "## ${heading}" section (a heading with ${word})${own}`];
  }
  return section.body.some((l) => !isPlaceholderLine(l.text)) ? [] : [`the "${section.title}" section (line ${section.line}) is empty`];
}

/** Blank, or a list item or emphasis holding only a placeholder word (TBD, n/a, -, ...). */
function isPlaceholderLine(line: string): boolean {
  const bare = line.trim().replace(/^(?:[-*+]|\d+[.)])(?=\s|$)\s*/, '').replace(/^[*_`]+|[*_`]+$/g, '').trim();
  return bare === '' || PLACEHOLDER_WORD.test(bare);
}

function unnamedChanges(diff: ContractDiff, section: MarkdownSection): string[] {
  const body = section.body.map((l) => l.text).join('\n');
  const missing = breakingTerms(diff).filter(({ term }) => !namesWord(body, term));
  if (missing.length === 0) return [];
  const listed = missing.map(({ term, changes }) => `${term} (${changes.map((c) => c.change).join(', ')})`).join(', ');
  return [`the "${section.title}" section does not name ${missing.length === 1 ? 'the breaking change' : `${missing.length} breaking changes`} diff finds: ${listed}`];
}

/** The old major must say when it ends, and the document must say the same. */
function sunsetGaps({ old, now }: MigrationInput, text: string, timeline: MarkdownSection | undefined): string[] {
  const who = `${old.name} v${old.version.major} (${old.version.text})`;
  if (old.status !== 'deprecated' || old.sunset === undefined) {
    return [`${who} is ${old.status}${old.sunset ? '' : ' with no sunset'}: set status: deprecated and sunset: YYYY-MM-DD in its contract, the day the gate retires it, and give that date in the timeline`];
  }
  const sunset = old.sunset;
  const gaps = contradictions(text, sunset, who);
  const today = now === undefined ? undefined : new Date(now).toISOString().slice(0, 10);
  if (today !== undefined && sunset <= today) {
    gaps.push(`the sunset of ${who}, ${sunset}, is not after today (${today}): v${old.version.major} would retire at once, with no window beside the new major; move the sunset in its contract (and the timeline) to a day after the window opens`);
  }
  if (!timeline) return gaps;
  const dates = timeline.body.flatMap((l) => l.text.match(ISO_DATE) ?? []);
  if (!dates.includes(sunset)) gaps.push(`the "${timeline.title}" section does not give v${old.version.major}'s sunset, ${sunset} (the sunset of ${who})`);
  if (!dates.some((d) => d < sunset)) gaps.push(`the "${timeline.title}" section gives no date before the sunset ${sunset} on which the window opens (v${old.version.major} and the new major published side by side)`);
  return gaps;
}

/** A line that speaks of the sunset or retirement with another date contradicts the contract. */
function contradictions(text: string, sunset: string, who: string): string[] {
  const lines: MarkdownLine[] = text.split(/\r?\n/).map((line, at) => ({ line: at + 1, text: line }));
  return lines.flatMap(({ line, text: content }) => {
    if (!/sunset|retire/i.test(content)) return [];
    const other = (content.match(ISO_DATE) ?? []).filter((d) => d !== sunset);
    return other.length > 0 && !content.includes(sunset) ? [`line ${line} gives the sunset as ${other.join(', ')}, but the sunset of ${who} is ${sunset}`] : [];
  });
}

function placeholderGaps(text: string): string[] {
  const at = text.split(/\r?\n/).flatMap((line, index) => (MARKER.test(line) ? [index + 1] : []));
  if (at.length === 0) return [];
  return [`${at.length} ${PLACEHOLDER} placeholder${at.length === 1 ? '' : 's'} left to write (line${at.length === 1 ? '' : 's'} ${at.join(', ')})`];
}

/** The skeleton's questions left as it wrote them, the marker deleted: asked, not answered. */
function promptGaps(input: MigrationInput, text: string): string[] {
  const squeeze = (line: string) => line.replace(/\s+/g, ' ').trim().toLowerCase();
  const prompts = Object.values(skeletonPrompts(input.old.version.major, input.next.version.major)).map(squeeze);
  const left = text.split(/\r?\n/).flatMap((line, index) => {
    const squeezed = squeeze(line);
    return !MARKER.test(line) && prompts.some((p) => squeezed.includes(p)) ? [`line ${index + 1}: "${line.trim()}"`] : [];
  });
  if (left.length === 0) return [];
  return [`${left.length} line${left.length === 1 ? '' : 's'} of the skeleton left as it asks, not answered (write what it asks for): ${left.join('; ')}`];
}

/** `term` as a whole identifier: `amount` is not named by `refund_amount`. */
function namesWord(text: string, term: string): boolean {
  const escaped = term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_])${escaped}(?![A-Za-z0-9_])`, 'i').test(text);
}

/** Where a new major's document is, and its text when there is one. */
export interface MigrationFile {
  /** As messages name it, e.g. `contracts/migrations/orders_v1_to_v2.md`. */
  readonly path: string;
  readonly text?: string;
}

/**
 * Why the new major cannot go ahead on this document, or undefined when it can. `skeleton` is the
 * command that writes a start, e.g. `contract-gate diff a.yaml b.yaml --migration-skeleton <path>`.
 */
export function migrationRefusal(input: MigrationInput, file: MigrationFile, skeleton: string): string | undefined {
  const major = `v${input.next.version.major}`;
  if (file.text === undefined) {
    return `${input.next.name} ${major} is a new major and needs a migration document: write ${file.path}, naming what changed, the window and the v${input.old.version.major} sunset (start from: ${skeleton})`;
  }
  // The registry's most, here too: check-compat must not pass a document publish will refuse.
  const bytes = new TextEncoder().encode(file.text).length;
  if (bytes > MAX_VERSION_BYTES) return `the migration document ${file.path} of ${input.next.name} ${major} is ${bytes} bytes, more than ${MAX_VERSION_BYTES} (1 MiB), the most the registry keeps: move long material elsewhere and link it`;
  const gaps = migrationGaps(input, file.text);
  return gaps.length === 0 ? undefined : `the migration document ${file.path} of ${input.next.name} ${major} is incomplete: ${gaps.join('; ')}`;
}
