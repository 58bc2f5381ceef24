import { formatColumnType, parseColumnType } from '../contract/column-type.js';

/** Whose type names a source uses: the same word means different types in different engines. */
export type Dialect = 'generic' | 'duckdb' | 'bigquery' | 'pandas';

export interface MappedType {
  readonly type: string;
  /** How the name was read, when a reader could expect otherwise: becomes a comment. */
  readonly note?: string;
  /** `varchar(32)`: the length, which becomes max_length. */
  readonly maxLength?: number;
}

const WORDS: Readonly<Record<string, string>> = {
  ...words('string', 'string str varchar char character nvarchar nchar text bpchar uuid json jsonb clob citext "character varying"'),
  // An int64 column also accepts files that store int32, so an unsized integer refuses no file.
  ...words('int64', 'integer int bigint long int64 int8 bigserial'),
  ...words('int32', 'smallint tinyint int32 int4 int2 short serial'),
  ...words('float64', 'float double float64 float8 number "double precision"'),
  ...words('float32', 'real float32 float4'),
  ...words('boolean', 'boolean bool'),
  ...words('date', 'date'),
  ...words('timestamp', 'timestamp timestamptz timestamp_tz timestamp_ltz "timestamp with time zone" instant'),
  ...words('timestamp_ntz', 'timestamp_ntz datetime "timestamp without time zone"'),
  ...words('binary', 'binary bytes blob bytea varbinary'),
};

const DECIMAL = /^(?:decimal|numeric|dec|bignumeric)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/;
const BARE_DECIMAL: Readonly<Record<Dialect, { type: string; why: string }>> = {
  duckdb: { type: 'decimal(18,3)', why: "DuckDB's DECIMAL without precision is DECIMAL(18,3)" },
  bigquery: { type: 'decimal(38,9)', why: "BigQuery's NUMERIC is NUMERIC(38,9)" },
  pandas: { type: 'decimal(38,18)', why: 'a decimal without precision is read as decimal(38,18), which takes any narrower decimal of scale 18 or less; narrow it to what the files hold' },
  generic: { type: 'decimal(38,18)', why: 'a decimal without precision is read as decimal(38,18), which takes any narrower decimal of scale 18 or less; narrow it to what the files hold' },
};

/** The native type for a source type name, or undefined when there is none (the caller refuses it). */
export function mapTypeName(written: string, dialect: Dialect): MappedType | undefined {
  const text = written.trim().toLowerCase().replace(/\s+/g, ' ');
  if (dialect === 'duckdb' && (text === 'timestamp' || text === 'datetime')) {
    return { type: 'timestamp_ntz', note: `DuckDB's ${written} has no time zone: timestamp_ntz (write TIMESTAMPTZ for instants)` };
  }
  if (dialect === 'pandas') {
    const dtype = pandasType(text, written);
    if (dtype) return dtype;
  }
  const decimal = DECIMAL.exec(text);
  if (decimal) return { type: `decimal(${decimal[1]},${decimal[2] ?? 0})` };
  if (['decimal', 'numeric', 'dec'].includes(text)) return { type: BARE_DECIMAL[dialect].type, note: BARE_DECIMAL[dialect].why };
  const sized = /^(varchar|char|character varying|nvarchar|string)\s*\(\s*(\d+)\s*\)$/.exec(text);
  if (sized) return { type: 'string', maxLength: Number(sized[2]) };
  const base = text.replace(/\s*\(\s*\d+\s*\)$/, ''); // timestamp(6)
  const native = parseColumnType(base);
  if (native) return { type: formatColumnType(native) };
  const word = WORDS[base];
  return word ? { type: word } : undefined;
}

/** pandas dtypes: `object` is how pandas holds strings; datetime64 without a zone is wall-clock time. */
function pandasType(text: string, written: string): MappedType | undefined {
  if (text === 'object') return { type: 'string', note: `pandas' ${written} dtype holds Python objects; read as string, the type a column of text needs` };
  if (text === 'category') return { type: 'string', note: `pandas' category dtype of text values: string` };
  const datetime = /^datetime64\[(?:ns|us|ms|s)(,\s*.+)?\]$/.exec(text);
  if (!datetime) return undefined;
  return datetime[1] ? { type: 'timestamp' } : { type: 'timestamp_ntz', note: `pandas' ${written} has no time zone: timestamp_ntz (datetime64[ns, UTC] is an instant)` };
}

export const KNOWN_TYPE_NAMES = 'string/varchar/text, integer/bigint/smallint, float/double/real, decimal(p,s)/numeric(p,s), boolean, date, timestamp/timestamptz/datetime, binary/bytes';

/** `words('x', 'a b "c d"')` → { a: 'x', b: 'x', 'c d': 'x' }. */
function words(type: string, list: string): Record<string, string> {
  const names = list.match(/"[^"]+"|\S+/g) ?? [];
  return Object.fromEntries(names.map((name) => [name.replaceAll('"', ''), type]));
}
