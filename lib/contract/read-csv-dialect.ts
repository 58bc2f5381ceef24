import { isScalar, type Node } from 'yaml';
import { CSV_DIALECT_KEYS, CSV_ENCODINGS, DEFAULT_CSV_DIALECT, type CsvDialect, type CsvEncoding } from './csv-dialect.js';
import type { YamlReader } from './yaml-reader.js';

/** Other names of the encodings read, as Python and iconv spell them. */
const ENCODING_ALIASES: Readonly<Record<string, CsvEncoding>> = {
  'utf-8': 'utf-8', utf8: 'utf-8', 'utf-8-sig': 'utf-8',
  latin1: 'latin1', 'latin-1': 'latin1', 'iso-8859-1': 'latin1', iso8859_1: 'latin1',
  'windows-1252': 'windows-1252', cp1252: 'windows-1252',
  'utf-16': 'utf-16', utf16: 'utf-16', 'utf-16le': 'utf-16le', 'utf-16be': 'utf-16be',
};

/** `produces.csv`: every key optional, each defaulting to what the reader does without one. */
export function readCsvDialect(reader: YamlReader, node: Node | null): CsvDialect | undefined {
  const entries = reader.map(node, 'produces.csv', Object.keys(CSV_DIALECT_KEYS));
  if (!entries) return undefined;
  const value = (key: string) => entries.get(key)?.value;
  const char = (key: 'delimiter' | 'quote' | 'escape', fallback: string) => {
    const found = value(key);
    return found === undefined ? fallback : readChar(reader, found, `produces.csv.${key}`);
  };
  const delimiter = char('delimiter', DEFAULT_CSV_DIALECT.delimiter);
  const quote = char('quote', DEFAULT_CSV_DIALECT.quote);
  const escape = char('escape', quote ?? DEFAULT_CSV_DIALECT.quote);
  const flag = (key: string, fallback: boolean) => {
    const found = value(key);
    return found === undefined ? fallback : reader.boolean(found, `produces.csv.${key}`);
  };
  const escapeUnquoted = flag('escape_unquoted', false);
  const header = flag('header', true);
  const nulls = value('null_values');
  const nullValues = nulls === undefined ? DEFAULT_CSV_DIALECT.nullValues : readNullValues(reader, nulls, delimiter, quote);
  const encodingNode = value('encoding');
  const encoding = encodingNode === undefined ? DEFAULT_CSV_DIALECT.encoding : readEncoding(reader, encodingNode);
  if (delimiter === undefined || quote === undefined || escape === undefined || escapeUnquoted === undefined) return undefined;
  if (!distinct(reader, entries, { delimiter, quote, escape }, escapeUnquoted)) return undefined;
  if (header === undefined || nullValues === undefined || encoding === undefined) return undefined;
  return { delimiter, quote, escape, escapeUnquoted, header, nullValues, encoding };
}

function readChar(reader: YamlReader, node: Node | null, path: string): string | undefined {
  const value = reader.scalar(node, path);
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : String(value);
  if (text.length === 1 && text.charCodeAt(0) < 0x80 && text !== '\n' && text !== '\r') return text;
  const tab = text === '\\t' ? `; for a tab write "\\t" in double quotes` : '';
  reader.report('invalid_value', path, node, `expected one ASCII character other than a line break, found ${JSON.stringify(text)}${tab}`);
  return undefined;
}

/** Delimiter, quote and escape must tell a field's end from its text: only escape may equal quote. */
function distinct(reader: YamlReader, entries: Map<string, { value: Node | null }>, chars: { delimiter: string; quote: string; escape: string }, escapeUnquoted: boolean): boolean {
  const at = (key: string) => entries.get(key)?.value ?? entries.get('delimiter')?.value;
  if (chars.delimiter === chars.quote) {
    reader.report('invalid_value', 'produces.csv.quote', at('quote'), `the quote ${JSON.stringify(chars.quote)} is also the delimiter; they must differ`);
    return false;
  }
  if (chars.delimiter === chars.escape) {
    reader.report('invalid_value', 'produces.csv.escape', at('escape'), `the escape ${JSON.stringify(chars.escape)} is also the delimiter; they must differ`);
    return false;
  }
  if (escapeUnquoted && chars.escape === chars.quote) {
    reader.report('invalid_value', 'produces.csv.escape_unquoted', entries.get('escape_unquoted')?.value, `escape_unquoted needs an escape character other than the quote (e.g. escape: '\\', as Python's escapechar)`);
    return false;
  }
  return true;
}

function readNullValues(reader: YamlReader, node: Node | null, delimiter: string | undefined, quote: string | undefined): string[] | undefined {
  const items = reader.items(node, 'produces.csv.null_values');
  if (!items) return undefined;
  const values = items.map((item, i) => {
    const path = `produces.csv.null_values[${i}]`;
    const scalar = reader.resolve(item);
    // An empty field is the one null value YAML may write bare (`- ''`); `~` or nothing is no string.
    if (!scalar || !isScalar(scalar) || typeof scalar.value !== 'string') {
      reader.report('wrong_type', path, scalar ?? node, `expected a string as the file writes it, in quotes (e.g. '', 'NULL', '\\N', '""'), found ${scalar && isScalar(scalar) ? JSON.stringify(scalar.value) : 'no value'}`);
      return undefined;
    }
    const text = scalar.value;
    if (/[\r\n]/.test(text) || (delimiter !== undefined && text.includes(delimiter) && !(quote !== undefined && isQuoted(text, quote)))) {
      reader.report('invalid_value', path, scalar, `${JSON.stringify(text)} holds a line break or the delimiter: no unquoted field can be written so`);
      return undefined;
    }
    return text;
  });
  return values.every((v) => v !== undefined) ? (values as string[]) : undefined;
}

function readEncoding(reader: YamlReader, node: Node | null): CsvEncoding | undefined {
  const value = reader.scalar(node, 'produces.csv.encoding');
  if (value === undefined) return undefined;
  const found = typeof value === 'string' ? ENCODING_ALIASES[value.toLowerCase()] : undefined;
  if (found !== undefined) return found;
  reader.report('invalid_value', 'produces.csv.encoding', node, `expected one of ${CSV_ENCODINGS.join(', ')}, found ${JSON.stringify(value)}: other encodings are not read here; convert the file to UTF-8 (iconv -f ${String(value)} -t UTF-8) and set encoding: utf-8`);
  return undefined;
}

/** A null value written in quotes matches a quoted field: `""` is Python's QUOTE_ALL None. */
export function isQuoted(text: string, quote: string): boolean {
  return text.length >= 2 && text.startsWith(quote) && text.endsWith(quote);
}
