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
/** A setext underline: `===` makes the line above a level-1 heading, `---` a level-2 one. */
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
/** A line that cannot be a setext heading's text: blank, a list item, a quote, already a heading. */
const NOT_SETEXT_TEXT = /^\s*$|^ {0,3}(?:[-*+]|\d+[.)])(?:\s|$)|^ {0,3}>|^ {0,3}#/;

/**
 * The text as it renders for the check: each HTML comment blanked, its line breaks kept so line
 * numbers still point into the file. An unclosed `<!--` hides the rest, as CommonMark renders it.
 */
export function withoutComments(text: string): string {
  return text.replace(/<!--[\s\S]*?(?:-->|$)/g, (comment) => comment.replace(/[^\r\n]/g, ''));
}

/** Every ATX or setext heading outside a fenced code block, with its body; a `#` inside a fence is code, not a heading. */
export function markdownSections(text: string): MarkdownSection[] {
  const lines = text.split(/\r?\n/).map((line, at) => ({ line: at + 1, text: line }));
  const headings: { at: number; level: number; title: string; body: number }[] = [];
  let fence: string | undefined;
  let paragraph: number | undefined;
  lines.forEach(({ text: line }, at) => {
    const wasFenced = fence !== undefined;
    const opens = FENCE.exec(line)?.[1];
    if (opens && (fence === undefined || opens.startsWith(fence))) fence = fence === undefined ? opens : undefined;
    if (wasFenced || opens) return void (paragraph = undefined);
    const heading = HEADING.exec(line);
    const underline = SETEXT.exec(line)?.[1];
    if (heading) headings.push({ at, level: heading[1]!.length, title: heading[2]!, body: at + 1 });
    else if (underline && paragraph !== undefined) headings.push({ at: paragraph, level: underline.startsWith('=') ? 1 : 2, title: lines[paragraph]!.text.trim(), body: at + 1 });
    paragraph = heading || underline || NOT_SETEXT_TEXT.test(line) ? undefined : at;
  });
  return headings.map(({ at, level, title, body }, index) => {
    const next = headings.slice(index + 1).find((h) => h.level <= level);
    return { title, level, line: at + 1, body: lines.slice(body, next?.at ?? lines.length) };
  });
}
