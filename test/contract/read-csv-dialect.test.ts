import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { DEFAULT_CSV_DIALECT } from '../../lib/contract/csv-dialect.js';

/** Lines 1-3; `produces` is line 4. */
const HEAD = ['name: orders', 'version: 1.0.0', 'owner: { team: t, notify: [a@example.com] }'];
const TAIL = ['schema:', '  columns:', '    - { name: id, type: string }'];

function load(...produces: string[]) {
  return parseContract([...HEAD, ...produces, ...TAIL].join('\n') + '\n', 'orders.v1.yaml');
}

function problems(...produces: string[]) {
  return load(...produces).problems.map(({ severity, code, path, line, column, message }) => ({ severity, code, path, line, column, message }));
}

describe('produces.csv', () => {
  it('is absent from a contract that does not write it: the reader keeps its defaults', () => {
    const { contract } = load('produces: { format: csv }');
    expect(contract?.produces).toEqual({ format: 'csv', partition: 'dt={ds}' });
  });

  it('fills every key a contract leaves out with what the reader does without one', () => {
    expect(load('produces: { format: csv, csv: {} }').contract?.produces.csv).toEqual(DEFAULT_CSV_DIALECT);
    expect(DEFAULT_CSV_DIALECT).toEqual({ delimiter: ',', quote: '"', escape: '"', escapeUnquoted: false, header: true, nullValues: [''], encoding: 'utf-8' });
  });

  it.each([
    ["delimiter: ';'", { delimiter: ';' }],
    ['delimiter: "\\t"', { delimiter: '\t' }],
    ["quote: \"'\"", { quote: "'", escape: "'" }],
    ["escape: '\\'", { escape: '\\' }],
    ["{ escape: '\\', escape_unquoted: true }", { escape: '\\', escapeUnquoted: true }],
    ['header: false', { header: false }],
    ["null_values: ['', 'NULL', '\\N', '\"\"']", { nullValues: ['', 'NULL', '\\N', '""'] }],
    ['null_values: []', { nullValues: [] }],
    ['encoding: cp1252', { encoding: 'windows-1252' }],
    ['encoding: UTF-16', { encoding: 'utf-16' }],
    ['encoding: iso-8859-1', { encoding: 'latin1' }],
  ])('reads %s', (entry, expected) => {
    const flow = entry.startsWith('{') ? entry : `{ ${entry} }`;
    const { contract, problems: found } = load(`produces: { format: csv, csv: ${flow} }`);
    expect(found).toEqual([]);
    expect(contract?.produces.csv).toEqual({ ...DEFAULT_CSV_DIALECT, ...expected });
  });

  it('places each mistake at its line and column, with what to write', () => {
    expect(problems('produces:', '  format: csv', '  csv:', "    delimiter: ';;'", "    quote: ''", '    header: no', '    encoding: shift_jis')).toEqual([
      { severity: 'error', code: 'invalid_value', path: 'produces.csv.delimiter', line: 7, column: 16, message: 'expected one ASCII character other than a line break, found ";;"' },
      { severity: 'error', code: 'invalid_value', path: 'produces.csv.quote', line: 8, column: 12, message: 'expected one ASCII character other than a line break, found ""' },
      { severity: 'error', code: 'wrong_type', path: 'produces.csv.header', line: 9, column: 13, message: 'expected true or false, found "no"' },
      { severity: 'error', code: 'invalid_value', path: 'produces.csv.encoding', line: 10, column: 15, message: 'expected one of utf-8, latin1, windows-1252, utf-16, utf-16le, utf-16be, found "shift_jis": other encodings are not read here; convert the file to UTF-8 (iconv -f shift_jis -t UTF-8) and set encoding: utf-8' },
    ]);
  });

  it("says how to write a tab when it is written as the two characters \\t", () => {
    expect(problems("produces: { format: csv, csv: { delimiter: '\\t' } }")[0]?.message).toBe('expected one ASCII character other than a line break, found "\\\\t"; for a tab write "\\t" in double quotes');
  });

  it('refuses a quote or escape that is the delimiter, and escape_unquoted without an escape of its own', () => {
    expect(problems("produces: { format: csv, csv: { delimiter: '\"' } }").map((p) => [p.path, p.message])).toEqual([['produces.csv.quote', 'the quote "\\"" is also the delimiter; they must differ']]);
    expect(problems("produces: { format: csv, csv: { delimiter: ';', escape: ';' } }").map((p) => p.path)).toEqual(['produces.csv.escape']);
    expect(problems('produces: { format: csv, csv: { escape_unquoted: true } }').map((p) => [p.path, p.line])).toEqual([['produces.csv.escape_unquoted', 4]]);
  });

  it('refuses a null value no unquoted field can hold, and one that is not a string', () => {
    expect(problems("produces: { format: csv, csv: { null_values: ['a,b', ~] } }").map((p) => [p.path, p.message])).toEqual([
      ['produces.csv.null_values[0]', '"a,b" holds a line break or the delimiter: no unquoted field can be written so'],
      ['produces.csv.null_values[1]', "expected a string as the file writes it, in quotes (e.g. '', 'NULL', '\\N', '\"\"'), found null"],
    ]);
  });

  it('refuses a dialect for a format other than CSV', () => {
    expect(problems("produces: { format: parquet, csv: { delimiter: ';' } }")).toEqual([
      { severity: 'error', code: 'invalid_value', path: 'produces.csv', line: 4, column: 35, message: "a CSV dialect applies to produces.format csv, and this contract's format is parquet: remove produces.csv" },
    ]);
  });

  it('suggests the key a misspelling meant', () => {
    expect(problems("produces: { format: csv, csv: { delimeter: ';' } }").map((p) => [p.code, p.path, p.message])).toEqual([['unknown_key', 'produces.csv.delimeter', 'unknown key "delimeter"; did you mean "delimiter"?']]);
  });
});
