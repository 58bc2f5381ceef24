/**
 * How a producer writes its CSV files (`produces.csv`): what separates fields, what quotes them,
 * how a quote inside a quoted field is escaped, whether the first line names the columns, which
 * fields are null, and the text encoding. Plain data: it crosses to worker threads with the plan.
 */
export interface CsvDialect {
  /** One ASCII character between fields. */
  readonly delimiter: string;
  /** One ASCII character around a field that holds a delimiter, quote or newline. */
  readonly quote: string;
  /**
   * One ASCII character that makes the next one literal inside a quoted field. Equal to `quote`
   * (the default) means RFC 4180's doubling: `""` inside quotes is one quote.
   */
  readonly escape: string;
  /**
   * The escape character also escapes in unquoted fields (Python's csv module with `escapechar`
   * writes `C:\\p`, `a\,b`); DuckDB and PostgreSQL escape only inside quotes (`C:\p` as it is).
   */
  readonly escapeUnquoted: boolean;
  /** The first line names the columns; false: the file has none, columns are in the contract's order. */
  readonly header: boolean;
  /**
   * A field that is written exactly so is null. `''` is an unquoted empty field; an entry in
   * quotes (`'""'`, `'"NULL"'`) matches a quoted field, as Python's QUOTE_ALL writes None.
   */
  readonly nullValues: readonly string[];
  readonly encoding: CsvEncoding;
}

export const CSV_ENCODINGS = ['utf-8', 'latin1', 'windows-1252', 'utf-16', 'utf-16le', 'utf-16be'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** What the reader did before dialects could be declared, and still does for a contract without one. */
export const DEFAULT_CSV_DIALECT: CsvDialect = {
  delimiter: ',',
  quote: '"',
  escape: '"',
  escapeUnquoted: false,
  header: true,
  nullValues: [''],
  encoding: 'utf-8',
};

/** The dialect keys as a contract writes them, each with its model field. */
export const CSV_DIALECT_KEYS = {
  delimiter: 'delimiter',
  quote: 'quote',
  escape: 'escape',
  escape_unquoted: 'escapeUnquoted',
  header: 'header',
  null_values: 'nullValues',
  encoding: 'encoding',
} as const satisfies Record<string, keyof CsvDialect>;

export type CsvDialectKey = keyof typeof CSV_DIALECT_KEYS;

/** A value of a dialect key as YAML writes it: `delimiter: ';'`, `header: false`, `null_values: ['', 'NULL']`. */
export function yamlValue(value: CsvDialect[keyof CsvDialect]): string {
  if (Array.isArray(value)) return `[${value.map((v) => yamlValue(v as string)).join(', ')}]`;
  if (typeof value === 'boolean') return String(value);
  const text = value as string;
  if (text === '\t') return '"\\t"';
  return `'${text.replaceAll("'", "''")}'`;
}

/** The keys whose values differ between two dialects, in the order a contract lists them. */
export function dialectDifferences(before: CsvDialect, after: CsvDialect): CsvDialectKey[] {
  return (Object.keys(CSV_DIALECT_KEYS) as CsvDialectKey[]).filter((key) => {
    const field = CSV_DIALECT_KEYS[key];
    return JSON.stringify(before[field]) !== JSON.stringify(after[field]);
  });
}
