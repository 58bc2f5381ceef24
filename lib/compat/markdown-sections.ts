/** A Markdown document cut at its headings: enough to find a section by its title, nothing more. */
export interface MarkdownSection {
  readonly title: string;
  readonly level: number;
  /** 1-based line of the heading. */
  readonly line: number;
  /** The lines under it up to the next heading of the same or a higher level (sub-sections included). */
  readonly body: readonly MarkdownLine[];
}

export interface MarkdownLine {
  readonly line: number;
  readonly text: string;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*?)[ \t#]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The text as it renders for the check: each HTML comment blanked, its line breaks kept so line
 * numbers still point into the file. An unclosed `<!--` hides the rest, as CommonMark renders it.
 */
export function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\r\n]/g, ''));
}

/** Every ATX heading outside a fenced code block, with its body; a `#` inside a fence is code, not a heading. */
export function markdownSections(text: string): MarkdownSection[] {
  const lines = text.split(/\r?\n/).map((line, at) => ({ line: at + 1, text: line }));
  const headings: { at: number; level: number; title: string }[] = [];
  let fence: string | undefined;
  lines.forEach(({ text: line }, at) => {
    const opens = FENCE.exec(line)?.[1];
    if (opens && (fence === undefined || opens.startsWith(fence))) fence = fence === undefined ? opens : undefined;
    const heading = fence === undefined ? HEADING.exec(line) : null;
    if (heading) headings.push({ at, level: heading[1]!.length, title: heading[2]! });
  });
  return headings.map(({ at, level, title }, index) => {
    const next = headings.slice(index + 1).find((h) => h.level <= level);
    return { title, level, line: at + 1, body: lines.slice(at + 1, next?.at ?? lines.length) };
  });
}
