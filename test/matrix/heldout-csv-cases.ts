import { GZIP, textHas, textLacks, ZSTD, type Claim } from './heldout-claims.js';
import { heldoutCase, lit, planted, rnd, type HeldoutCase, type HeldoutTable, type HeldoutWriter } from './heldout-case.js';
import { duckdbCsv, pythonCsv } from './heldout-writers.js';

const NULL = 'NULL';
/** Names that need the dialect: both delimiters, a quote, a backslash, a tab and a non-ASCII letter. */
const NAMES = `['plain', 'semi;colon', 'com,ma', 'quo"te', 'back\\slash', 'tab' || chr(9) || 'bed', 'café']`;

/**
 * Orders as a CSV producer writes them, with nulls planted in required strings and numbers out
 * of range. `emptyStrings` plants '' in an optional column with `min_length: 1`: a writer that
 * writes null and '' alike (Python's csv module) gets a table without them.
 */
function ordersTable(label: string, emptyStrings: boolean): HeldoutTable {
  return {
    label, rows: 4000, columns: [
      { name: 'id', sqlType: 'BIGINT', type: 'int64', required: true, min: '1', value: planted('i + 1', [1999, 3, '-5']) },
      { name: 'name', sqlType: 'VARCHAR', type: 'string', required: true, value: planted(`${NAMES}[i % 7 + 1]`, [571, 7, NULL]) },
      { name: 'note', sqlType: 'VARCHAR', type: 'string', minLength: 1, value: planted(`'n' || i`, ...(emptyStrings ? [[797, 5, "''"] as const] : []), [3, 0, NULL]) },
      { name: 'status', sqlType: 'VARCHAR', type: 'string', required: true, enum: ['placed', 'paid', 'cancelled'], value: planted(`['placed', 'paid', 'cancelled'][i % 3 + 1]`, [997, 9, "'Paid'"]) },
      { name: 'amount', sqlType: 'DECIMAL(12,2)', type: 'decimal(12,2)', min: '0', max: '50000',
        value: planted(`CAST(CAST(${rnd(30, 50_000)} AS VARCHAR) || '.' || lpad(CAST(${rnd(31, 100)} AS VARCHAR), 2, '0') AS DECIMAL(12,2))`,
          [1499, 11, lit('-0.01', 'DECIMAL(12,2)')], [1511, 12, lit('50000.01', 'DECIMAL(12,2)')], [101, 50, NULL]) },
      { name: 'qty', sqlType: 'INTEGER', type: 'int32', min: '1', max: '100', value: planted(`1 + ${rnd(32, 100)}`, [1201, 13, '0'], [1301, 14, '101']) },
      { name: 'at', sqlType: 'TIMESTAMPTZ', type: 'timestamp', required: true, notInFuture: true,
        value: planted(`make_timestamp(1795000000000000 + ${rnd(33, 900_000_000_000)})`, [1409, 15, "TIMESTAMP '2027-01-01 00:00:00'"]) },
    ],
  };
}

const duckdbOrders = ordersTable('orders', true);
const pythonOrders = ordersTable('orders-no-empty-strings', false);

/** DuckDB COPY with every CSV option a producer sets, each with the dialect the contract must declare. */
const DUCKDB_CSV: readonly (readonly [HeldoutWriter, readonly Claim[]])[] = [
  [duckdbCsv('defaults', '', 'csv'), [textHas('"com,ma"')]],
  [duckdbCsv('semicolon-nullstr-null', "DELIM ';', NULLSTR 'NULL'", 'csv', { delimiter: ';', null_values: ['NULL'] }), [textHas('id;name;'), textHas(';NULL;')]],
  [duckdbCsv('tab-nullstr-backslash-n', "DELIM '\\t', NULLSTR '\\N'", 'csv', { delimiter: '\t', null_values: ['\\N'] }), [textHas('\t\\N\t')]],
  [duckdbCsv('escape-backslash', "QUOTE '\"', ESCAPE '\\'", 'csv', { quote: '"', escape: '\\' }), [textHas('"quo\\"te"')]],
  [duckdbCsv('no-header', 'HEADER false', 'csv', { header: false }), [textLacks('id,name')]],
  [duckdbCsv('force-quote', 'FORCE_QUOTE *', 'csv'), [textHas('"plain"')]],
  [duckdbCsv('gzip-semicolon', "DELIM ';', COMPRESSION gzip", 'csv.gz', { delimiter: ';' }), [GZIP, textHas('id;name;')]],
  [duckdbCsv('zstd', 'COMPRESSION zstd', 'csv.zst'), [ZSTD]],
  [duckdbCsv('every-option', "DELIM ';', QUOTE '\"', ESCAPE '\\', HEADER false, NULLSTR 'NULL', FORCE_QUOTE *, COMPRESSION zstd", 'csv.zst',
    { delimiter: ';', quote: '"', escape: '\\', header: false, null_values: ['NULL'], encoding: 'utf-8' }), [ZSTD]],
];

/**
 * Python's csv.writer in every quoting mode. It writes None as an empty field (`""` when it
 * quotes every field or every string), so those dialects declare the empty field null; QUOTE_NONE
 * quotes nothing and escapes the delimiter and `"` with a backslash (declared as `escape_unquoted: true`).
 */
const PYTHON_CSV: readonly (readonly [HeldoutWriter, readonly Claim[]])[] = [
  [pythonCsv('quote-minimal', { quoting: 'QUOTE_MINIMAL' }), [textHas('"com,ma"')]],
  [pythonCsv('quote-all', { quoting: 'QUOTE_ALL' }, { quote: '"', null_values: ['""'] }), [textHas(',"",')]],
  [pythonCsv('quote-nonnumeric', { quoting: 'QUOTE_NONNUMERIC' }, { quote: '"', null_values: ['', '""'] }), [textHas('\n-5,"quo""te",')]],
  [pythonCsv('quote-none-escaped', { quoting: 'QUOTE_NONE', escapechar: '\\' }, { escape: '\\', escape_unquoted: true }), [textHas('com\\,ma'), textHas('quo\\"te')]],
  [pythonCsv('latin-1', { quoting: 'QUOTE_MINIMAL', encoding: 'latin-1' }, { encoding: 'latin-1' }), [textHas('café', 'latin1'), textLacks('café')]],
];

const TYPES = 'CSV: nulls in required strings, numbers out of range, strings with delimiters, quotes and backslashes';

export const HELDOUT_CSV_CASES: readonly HeldoutCase[] = [
  ...DUCKDB_CSV.map(([w, claims]) => heldoutCase(TYPES, duckdbOrders, w, claims)),
  ...PYTHON_CSV.map(([w, claims]) => heldoutCase(TYPES, pythonOrders, w, claims)),
];
