import { DEFAULT_CSV_DIALECT, type CsvDialect } from '../contract/csv-dialect.js';
import { isQuoted } from '../contract/read-csv-dialect.js';

const LF = 0x0a;

/**
 * A CSV dialect (contract/csv-dialect.ts) as the scanner works with it: byte values, -1 for a
 * character the dialect does not have, and null values as the bytes a field is written with.
 */
export class ByteDialect {
  readonly delimiter: number;
  readonly quote: number;
  /** The escape inside quotes, -1 where a quote is escaped by doubling it. */
  readonly escape: number;
  /** The escape in unquoted fields, -1 where they have none. */
  readonly unquotedEscape: number;
  /** The highest byte that can end an unquoted field's run: one compare passes most bytes. */
  readonly stopMax: number;
  /** Unquoted and quoted texts that are null, as latin1 strings of their UTF-8 bytes; undefined: only an empty unquoted field. */
  readonly nulls: { readonly unquoted: ReadonlySet<string>; readonly quoted: ReadonlySet<string>; readonly lengths: ReadonlySet<number> } | undefined;

  constructor(readonly dialect: CsvDialect = DEFAULT_CSV_DIALECT) {
    this.delimiter = dialect.delimiter.charCodeAt(0);
    this.quote = dialect.quote.charCodeAt(0);
    this.escape = dialect.escape === dialect.quote ? -1 : dialect.escape.charCodeAt(0);
    this.unquotedEscape = dialect.escapeUnquoted ? this.escape : -1;
    this.stopMax = Math.max(this.delimiter, LF, this.unquotedEscape);
    const plain = dialect.nullValues.length === 1 && dialect.nullValues[0] === '';
    this.nulls = plain ? undefined : nullSets(dialect);
  }

  /** Records without quotes can be split by searching for delimiters alone (CsvBatchBuilder.addUnquoted). */
  get plainSplits(): boolean {
    return this.nulls === undefined && this.unquotedEscape < 0;
  }

  /** The text of a field whose flags say it holds escapes. */
  unescape(text: string, quoted: boolean): string {
    const quote = this.dialect.quote;
    if (this.escape < 0) return text.replaceAll(quote + quote, quote);
    const escape = this.dialect.escape;
    let out = '';
    for (let i = 0; i < text.length; i++) {
      const c = text[i]!;
      if (c === escape && i + 1 < text.length) out += text[++i];
      else if (quoted && c === quote && text[i + 1] === quote) out += text[++i];
      else out += c;
    }
    return out;
  }

  /** Whether bytes [start, end) of a field, quoted or not, are written as a null value. */
  isNull(bytes: Buffer, start: number, end: number, quoted: boolean): boolean {
    const nulls = this.nulls!;
    if (!nulls.lengths.has(end - start)) return false;
    return (quoted ? nulls.quoted : nulls.unquoted).has(bytes.toString('latin1', start, end));
  }
}

export const DEFAULT_BYTE_DIALECT = new ByteDialect();

function nullSets(dialect: CsvDialect): ByteDialect['nulls'] {
  const unquoted = new Set<string>();
  const quoted = new Set<string>();
  for (const value of dialect.nullValues) {
    if (isQuoted(value, dialect.quote)) quoted.add(latin1(value.slice(1, -1)));
    else unquoted.add(latin1(value));
  }
  const lengths = new Set([...unquoted, ...quoted].map((text) => text.length));
  return { unquoted, quoted, lengths };
}

function latin1(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
