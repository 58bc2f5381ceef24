/**
 * A deliberately strict XML 1.0 reader for the JUnit tests: one root, matched tags, quoted
 * attributes, only the predefined and numeric references, no raw `<` or `&` in text or values,
 * no `]]>` in text, and only characters XML allows. It throws on anything else, so a test that
 * parses output with it proves the output well-formed, and reads back exactly what was escaped.
 */
export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  readonly text: string;
}

const NAME = /^[A-Za-z_][\w.-]*/;
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const ENTITIES: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function parseStrictXml(xml: string): XmlElement {
  if (!XML_CHARS.test(xml)) throw new Error('a character XML does not allow');
  const body = xml.replace(/^<\?xml version="1\.0" encoding="UTF-8"\?>\n/, '');
  if (body === xml) throw new Error('no XML declaration');
  const cursor = { at: 0 };
  const root = element(body, cursor);
  if (body.slice(cursor.at).trim() !== '') throw new Error(`content after the root at ${cursor.at}`);
  return root;
}

function element(xml: string, cursor: { at: number }): XmlElement {
  skipSpace(xml, cursor);
  if (xml[cursor.at] !== '<') throw new Error(`expected an element at ${cursor.at}`);
  cursor.at++;
  const name = readName(xml, cursor);
  const attributes: Record<string, string> = {};
  for (;;) {
    const space = skipSpace(xml, cursor);
    if (xml.startsWith('/>', cursor.at)) return (cursor.at += 2), { name, attributes, children: [], text: '' };
    if (xml[cursor.at] === '>') break;
    if (!space) throw new Error(`expected a space before an attribute at ${cursor.at}`);
    const key = readName(xml, cursor);
    if (key in attributes) throw new Error(`duplicate attribute ${key}`);
    if (xml[cursor.at] !== '=' || xml[cursor.at + 1] !== '"') throw new Error(`expected ="… at ${cursor.at}`);
    const end = xml.indexOf('"', cursor.at + 2);
    attributes[key] = unescape(xml.slice(cursor.at + 2, end), true);
    cursor.at = end + 1;
  }
  cursor.at++;
  return { name, attributes, ...content(xml, cursor, name) };
}

function content(xml: string, cursor: { at: number }, name: string): { children: XmlElement[]; text: string } {
  const children: XmlElement[] = [];
  let text = '';
  for (;;) {
    const next = xml.indexOf('<', cursor.at);
    if (next === -1) throw new Error(`unclosed <${name}>`);
    const raw = xml.slice(cursor.at, next);
    if (raw.includes(']]>')) throw new Error(']]> in text');
    text += unescape(raw, false);
    cursor.at = next;
    if (xml.startsWith(`</${name}>`, next)) return (cursor.at += name.length + 3), { children, text };
    if (xml[next + 1] === '/' || xml[next + 1] === '!' || xml[next + 1] === '?') throw new Error(`unexpected markup at ${next}`);
    children.push(element(xml, cursor));
  }
}

/** Line ends and (in attributes) whitespace are normalised in the literal text, before references are expanded. */
function unescape(raw: string, inAttribute: boolean): string {
  if (inAttribute && raw.includes('<')) throw new Error('raw < in an attribute');
  const literal = raw.replace(/\r\n?/g, '\n');
  return (inAttribute ? literal.replace(/[\t\n]/g, ' ') : literal).replace(/&([^;&<]*);|&/g, (whole, ref: string | undefined) => {
    if (ref === undefined) throw new Error('a bare &');
    const numeric = /^#(\d+)$|^#x([0-9a-fA-F]+)$/.exec(ref);
    const value = numeric ? String.fromCodePoint(numeric[1] ? Number(numeric[1]) : parseInt(numeric[2]!, 16)) : ENTITIES[ref];
    if (value === undefined || !XML_CHARS.test(value)) throw new Error(`bad reference ${whole}`);
    return value;
  });
}

function readName(xml: string, cursor: { at: number }): string {
  const match = NAME.exec(xml.slice(cursor.at));
  if (!match) throw new Error(`expected a name at ${cursor.at}`);
  cursor.at += match[0].length;
  return match[0];
}

function skipSpace(xml: string, cursor: { at: number }): boolean {
  const start = cursor.at;
  while (/\s/.test(xml[cursor.at] ?? '')) cursor.at++;
  return cursor.at > start;
}

/** Every element named `name` below (and including) `root`, in document order. */
export function findAll(root: XmlElement, name: string): XmlElement[] {
  return [...(root.name === name ? [root] : []), ...root.children.flatMap((c) => findAll(c, name))];
}
