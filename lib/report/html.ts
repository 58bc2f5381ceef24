/**
 * HTML built by one tagged template that escapes every interpolated value, so a value from the
 * data (a sample holding `<script>`, a partition named `"><img>`) can only ever render as text.
 * Markup passes through only as an `Html`, which only this template and `rawHtml` make.
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

export type HtmlPart = Html | string | number | boolean | null | undefined | readonly HtmlPart[];

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Explicit bidirectional controls (embeddings, overrides, isolates, marks) reorder what follows
 * them: `\u202E92-11-6202=td` would show as `dt=2026-11-29`. Data never needs them to be read,
 * so they are shown as their escapes, as the JUnit output shows control characters.
 */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!).replace(BIDI, (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`);
}

/** `false`, null and undefined render as nothing, so `${cond && html`...`}` reads naturally. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlPart[]): Html {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += partText(values[i]) + strings[i + 1]!;
  return new Html(text);
}

/** For markup this module's callers wrote themselves (the stylesheet), never for data. */
export function rawHtml(text: string): Html {
  return new Html(text);
}

function partText(part: HtmlPart): string {
  if (part instanceof Html) return part.text;
  if (part === null || part === undefined || part === false) return '';
  if (Array.isArray(part)) return part.map(partText).join('');
  return escapeHtml(String(part));
}

/** `1,234,567`: counts as people read them. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** A whole page: no script, no network, the stylesheet inline. */
export function htmlPage(title: string, body: Html, options: { readonly refreshSeconds?: number } = {}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${options.refreshSeconds !== undefined && html`<meta http-equiv="refresh" content="${options.refreshSeconds}">`}
<title>${title}</title>
<style>${rawHtml(STYLE)}</style>
</head>
<body>
${body}
</body>
</html>
`.text;
}

/**
 * One stylesheet for both pages. State colours come with a word and a symbol everywhere they are
 * used, so the colour is never the only signal; long names wrap instead of overflowing.
 */
const STYLE = `
:root { --ok: #1a7f37; --warn: #9a6700; --bad: #cf222e; --late: #8250df; --stage: #0969da; --wait: #57606a; --line: #d0d7de; --soft: #f6f8fa; }
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; margin: 0 auto; padding: 1.5rem; max-width: 75rem; }
h1 { font-size: 1.6rem; margin: 0 0 .25rem; overflow-wrap: anywhere; }
h2 { font-size: 1.2rem; margin: 2rem 0 .5rem; border-bottom: 1px solid var(--line); padding-bottom: .25rem; overflow-wrap: anywhere; }
h3 { font-size: 1rem; margin: 1.25rem 0 .25rem; overflow-wrap: anywhere; }
p, li, td, th, dd, dt { overflow-wrap: anywhere; }
.meta { color: #57606a; margin: 0 0 1rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; table-layout: fixed; }
th, td { border: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: var(--soft); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.message { white-space: pre-wrap; }
code, .value { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; white-space: pre-wrap; overflow-wrap: anywhere; }
.badge { display: inline-block; font-weight: 700; padding: .2rem .6rem; border-radius: .3rem; border: 2px solid currentColor; }
.pass, .published { color: var(--ok); }
.warn, .published_with_warnings { color: var(--warn); }
.fail, .quarantined { color: var(--bad); }
.missed_sla { color: var(--late); }
.in_staging { color: var(--stage); }
.waiting { color: var(--wait); }
.error { color: var(--bad); font-weight: 600; }
.warning { color: var(--warn); font-weight: 600; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0 0 1rem; }
dl.facts dt { font-weight: 600; }
dl.facts dd { margin: 0; }
ol.calendar { list-style: none; padding: 0; margin: .5rem 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(9.5rem, 1fr)); gap: .4rem; }
ol.calendar li { margin: 0; }
ol.calendar a { display: block; height: 100%; border: 2px solid currentColor; border-radius: .35rem; padding: .35rem .45rem; text-decoration: none; background: #fff; }
ol.calendar a:hover, ol.calendar a:focus { background: var(--soft); outline: 2px solid #1f2328; }
.cell-state { display: block; font-weight: 700; }
.cell-partition { display: block; color: #1f2328; font-family: ui-monospace, monospace; font-size: .85em; overflow-wrap: anywhere; }
.cell-rows { display: block; color: #57606a; font-size: .85em; }
ul.legend { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4rem 1.2rem; margin: .5rem 0 1rem; }
ul.legend li { font-weight: 600; }
figure { margin: .5rem 0 1rem; }
figure svg { width: 100%; max-width: 60rem; height: auto; border: 1px solid var(--line); background: #fff; }
figcaption { color: #57606a; font-size: .9em; }
svg .bar, svg .bar-symbol { fill: currentColor; }
svg text { fill: #1f2328; }
svg .bar-symbol { font-weight: 700; }
svg .band { fill: #dafbe1; }
svg .band-edge { stroke: var(--ok); stroke-dasharray: 4 3; }
@media (max-width: 40rem) {
  table.notices thead { display: none; }
  table.notices tr, table.notices td { display: block; width: auto; border: none; }
  table.notices tr { border: 1px solid var(--line); margin-bottom: .4rem; padding: .2rem 0; }
}
nav ul { display: flex; flex-wrap: wrap; gap: .3rem 1rem; padding: 0; list-style: none; }
`;
