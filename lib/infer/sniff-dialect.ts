import { isUtf8 } from 'node:buffer';
import { DEFAULT_CSV_DIALECT, type CsvDialect, type CsvEncoding } from '../contract/csv-dialect.js';
import { textChunks } from '../formats/text-chunks.js';
import { localPartitionFile } from '../storage/local-files.js';

/** Text enough to see how a file is written: some hundred lines of a typical CSV. */
const SNIFF_BYTES = 64 * 1024;
const DELIMITERS = [',', ';', '\t', '|'] as const;

/** How the samples' CSV is written, where it differs from the defaults, with why (the comment over `produces.csv`). */
export interface SniffedDialect {
  readonly dialect: CsvDialect;
  readonly notes: readonly string[];
  /** Columns of a file without a header, named column_1… for the owner to rename. */
  readonly columns?: readonly string[];
}

/** Looks at the head of the first sample file (inflated when compressed) for its dialect. */
export async function sniffDialect(file: { readonly path: string; readonly size: number }): Promise<SniffedDialect> {
  const opened = await localPartitionFile(file.path, file.size).open();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    for await (const chunk of textChunks(opened.source, SNIFF_BYTES)) {
      chunks.push(chunk);
      if ((length += chunk.length) >= SNIFF_BYTES) break;
    }
  } finally {
    await opened.close();
  }
  return sniffText(Buffer.concat(chunks));
}

/** The pure part: a dialect from the first bytes of a file. */
export function sniffText(head: Buffer): SniffedDialect {
  const notes: string[] = [];
  const { encoding, text } = decodeHead(head, notes);
  const lines = records(text, text.includes("'") && !text.includes('"') ? "'" : '"').slice(0, 200);
  const delimiter = sniffDelimiter(lines, notes);
  const quote = sniffQuote(lines, delimiter, notes);
  const { escape, escapeUnquoted } = sniffEscape(text, delimiter, quote, notes);
  const fields = lines.map((line) => splitRaw(line, delimiter, quote));
  const header = sniffHeader(fields[0] ?? [], notes);
  const nullValues = sniffNulls(header ? fields.slice(1) : fields, quote, notes);
  const dialect: CsvDialect = { delimiter, quote, escape, escapeUnquoted, header, nullValues, encoding };
  const columns = header ? undefined : (fields[0] ?? []).map((_, k) => `column_${k + 1}`);
  return { dialect, notes, ...(columns ? { columns } : {}) };
}

function decodeHead(head: Buffer, notes: string[]): { encoding: CsvEncoding; text: string } {
  if (head[0] === 0xff && head[1] === 0xfe) return note(notes, 'utf-16', 'the file starts with a UTF-16 byte order mark', new TextDecoder('utf-16le').decode(head));
  if (head[0] === 0xfe && head[1] === 0xff) return note(notes, 'utf-16', 'the file starts with a UTF-16 byte order mark', new TextDecoder('utf-16be').decode(head));
  // The head may end inside a character: only whole lines are judged.
  const whole = head.subarray(0, Math.max(0, head.lastIndexOf(0x0a) + 1) || head.length);
  if (isUtf8(whole)) return { encoding: 'utf-8', text: whole.toString('utf8') };
  return note(notes, 'windows-1252', 'the text is not UTF-8: windows-1252, as Excel writes on Windows, reads it (latin1 if the producer says ISO-8859-1)', new TextDecoder('windows-1252').decode(whole));
}

function note(notes: string[], encoding: CsvEncoding, why: string, text: string): { encoding: CsvEncoding; text: string } {
  notes.push(`encoding: ${why}`);
  return { encoding, text };
}

/** The delimiter that splits the most lines into the same number of fields above one; a comma when none does. */
function sniffDelimiter(lines: readonly string[], notes: string[]): string {
  let best: { char: string; fields: number; agree: number } | undefined;
  for (const char of DELIMITERS) {
    const counts = lines.map((line) => splitRaw(line, char, '"').length);
    const fields = counts[0] ?? 1;
    const agree = counts.filter((n) => n === fields).length;
    if (fields < 2 || agree < lines.length * 0.8) continue;
    if (!best || agree > best.agree || (agree === best.agree && fields > best.fields)) best = { char, fields, agree };
  }
  const delimiter = best?.char ?? ',';
  if (delimiter !== ',') notes.push(`delimiter: the lines split on ${JSON.stringify(delimiter)} into ${best!.fields} fields each`);
  return delimiter;
}

/** A single quote where fields open with one and none with a double quote (DuckDB's QUOTE ''''). */
function sniffQuote(lines: readonly string[], delimiter: string, notes: string[]): string {
  const starts = (q: string) => lines.some((line) => line.split(delimiter).some((field) => field.length > 1 && field.startsWith(q) && field.endsWith(q)));
  if (!starts("'") || starts('"')) return '"';
  notes.push("quote: fields are quoted with ' (DuckDB QUOTE '''')");
  return "'";
}

/**
 * A backslash before a quote that does not end its field is an escape (DuckDB's ESCAPE '\\').
 * Python's escapechar also escapes the delimiter in unquoted fields, and then every backslash
 * it writes escapes something: a backslash before any other character (DuckDB's C:\\p as it
 * is) rules that reading out, since the two cannot be told apart from a \\, alone.
 */
function sniffEscape(text: string, delimiter: string, quote: string, notes: string[]): { escape: string; escapeUnquoted: boolean } {
  const inQuotes = new RegExp(`\\\\${escapeClass(quote)}[^${escapeClass(delimiter)}\\r\\n]`).test(text);
  const escaped = [...text.matchAll(/(?<!\\)(?:\\\\)*\\([^])/g)].map((m) => m[1]);
  const unquoted = escaped.includes(delimiter) && escaped.every((c) => c === delimiter || c === quote || c === '\\' || c === '\r' || c === '\n');
  if (!inQuotes && !unquoted) return { escape: quote, escapeUnquoted: false };
  notes.push(unquoted ? `escape: a backslash escapes the delimiter in unquoted fields (Python's csv with escapechar='\\\\')` : `escape: quotes inside quoted fields are escaped with a backslash (DuckDB ESCAPE '\\')`);
  return { escape: '\\', escapeUnquoted: unquoted };
}

function escapeClass(char: string): string {
  return char.replace(/[\\\]^\-[]/g, '\\$&').replace('\t', '\\t');
}

/** No header where the first line has a field that is a number or empty: names are neither. */
function sniffHeader(first: readonly RawField[], notes: string[]): boolean {
  const data = first.find((f) => f.text === '' || /^[-+]?\.?\d/.test(f.text));
  if (data === undefined) return true;
  notes.push(`header: the first line holds ${data.text === '' ? 'an empty field' : `"${data.text}"`}, data rather than a column name; name the columns (they are read in this order)`);
  return false;
}

/**
 * Null as written: an unquoted NULL or \N (DuckDB's NULLSTR), or, where no field is ever an
 * unquoted empty one, a quoted "" (Python's QUOTE_ALL and QUOTE_NONNUMERIC write None so).
 */
function sniffNulls(rows: readonly (readonly RawField[])[], quote: string, notes: string[]): readonly string[] {
  const fields = rows.flat();
  const has = (quoted: boolean, text: string) => fields.some((f) => f.quoted === quoted && f.text === text);
  // The text NULL unquoted beside an empty string quoted ("") is a value: that writer's null is the empty
  // field. Otherwise it is taken for a null: read as text, a null would pass a required column. Of NULL
  // and \\N, the one the writer also quotes (to write the text apart from its null) is its null.
  const tokens = ['NULL', '\\N'].filter((token) => has(false, token) && !(has(true, '') && !has(true, token)));
  const score = (token: string) => (has(true, token) ? fields.length : 0) + fields.filter((f) => !f.quoted && f.text === token).length;
  const token = tokens.sort((a, b) => score(b) - score(a))[0];
  if (token !== undefined) {
    notes.push(`null_values: unquoted ${token} fields are nulls (DuckDB NULLSTR '${token}'); an empty unquoted field is then an empty string`);
    return [token];
  }
  const quotedEmpty = has(true, '');
  // Quotes around text that needs none: a writer that quotes every field or string, not one that quotes what it must.
  const needless = fields.some((f) => f.quoted && /^[A-Za-z0-9 ._:-]+$/.test(f.text));
  if (!quotedEmpty || !needless || has(false, '')) return DEFAULT_CSV_DIALECT.nullValues;
  notes.push(`null_values: fields are never empty unquoted but ${quote}${quote} is written: the writer's null (Python's QUOTE_ALL, QUOTE_NONNUMERIC), which it writes for an empty string too`);
  return ['', `${quote}${quote}`];
}

/** The text's records, newlines inside quotes kept (a doubled quote toggles twice), the last one only if whole. */
function records(text: string, quote: string): string[] {
  const found: string[] = [];
  let start = 0;
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c === quote) quoted = !quoted;
    else if (c === '\n' && !quoted) {
      const line = text.slice(start, at).replace(/\r$/, '');
      if (line !== '') found.push(line);
      start = at + 1;
    }
  }
  return found;
}

interface RawField {
  readonly text: string;
  readonly quoted: boolean;
}

/** A line's fields as written (quotes off, escapes kept): enough to count and compare them. */
function splitRaw(line: string, delimiter: string, quote: string): RawField[] {
  const fields: RawField[] = [];
  let at = 0;
  while (at <= line.length) {
    if (line[at] === quote) {
      let end = at + 1;
      for (;;) {
        end = line.indexOf(quote, end);
        if (end === -1 || line[end + 1] !== quote) break;
        end += 2;
      }
      const close = end === -1 ? line.length : end;
      fields.push({ text: line.slice(at + 1, close), quoted: true });
      const next = line.indexOf(delimiter, close);
      if (next === -1) break;
      at = next + 1;
    } else {
      const next = line.indexOf(delimiter, at);
      fields.push({ text: line.slice(at, next === -1 ? line.length : next), quoted: false });
      if (next === -1) break;
      at = next + 1;
    }
  }
  return fields;
}
