import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { csvRanges } from '../../lib/formats/csv-ranges.js';
import type { TableFile } from '../../lib/formats/table-file.js';
import { counts, memoryFile, validate } from '../fixtures/partition.js';
import { openDuckDB, sqlString } from '../writers/duckdb-session.js';
import { DIALECT_ROWS, DIALECT_TABLE_SQL, dialectContract, expectedCounts, expectedText, pythonCsv, pythonHas, sourceRows } from './csv-dialect-table.js';

/**
 * CSV as DuckDB's COPY and Python's csv module write it with each option, read as the
 * contract's `produces.csv` declares: every planted violation found, exactly as DuckDB SQL over
 * the source counts them (a null written as text is a null, a quoted "" an empty string where
 * the writer tells them apart), and each text value read back as it was, also across byte ranges.
 */
let session: { connection: DuckDBConnection; close: () => void };
let dir: string;
let rows: unknown[][];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-csv-dialects-'));
  session = await openDuckDB();
  await session.connection.run(DIALECT_TABLE_SQL);
  rows = await sourceRows(session.connection);
});
afterAll(() => {
  session.close();
  rmSync(dir, { recursive: true, force: true });
});

async function duckdbWrites(name: string, options: string): Promise<Uint8Array> {
  const path = join(dir, name);
  await session.connection.run(`COPY (FROM t ORDER BY id) TO ${sqlString(path)} (${options})`);
  return new Uint8Array(readFileSync(path));
}

interface Case {
  readonly what: string;
  readonly write: () => Promise<Uint8Array>;
  /** `produces.csv` as a YAML flow mapping. */
  readonly csv: string;
  /** The writer writes an empty string as it writes a null: both read as null. */
  readonly emptyIsNull: boolean;
}

const CONTRACT_COLUMNS = ['id', 'name', 'note', 'amount', 'qty'];
const dialectOf = (csv: string) => dialectContract(csv).produces.csv!;
const open = (bytes: Uint8Array, csv: string, options: { chunkBytes?: number } = {}): TableFile =>
  openCsvFile(byteSourceFromBytes(bytes), { dialect: dialectOf(csv), columns: CONTRACT_COLUMNS, ...options });

async function textColumn(file: TableFile, column: string, textRange?: Parameters<TableFile['batches']>[1] extends infer O ? O extends { textRange?: infer R } ? R : never : never): Promise<unknown[]> {
  const values: unknown[] = [];
  for await (const batch of file.batches([column], textRange ? { textRange } : {})) {
    expect(batch.unreadableRows ?? []).toEqual([]);
    values.push(...Array.from(batch.columns.get(column)!));
  }
  return values;
}

const duckdb = (what: string, name: string, options: string, csv: string, emptyIsNull = false): Case => ({ what: `DuckDB COPY with ${what}`, write: () => duckdbWrites(name, options), csv, emptyIsNull });
const python = (what: string, args: string, csv: string, emptyIsNull: boolean, encoding?: string): Case => ({ what: `Python csv.writer with ${what}`, write: async () => pythonCsv(rows, args, encoding), csv, emptyIsNull });

const CASES: Case[] = [
  duckdb('the defaults', 'default.csv', 'FORMAT csv', '{}'),
  duckdb("DELIM ';'", 'semi.csv', "FORMAT csv, DELIM ';'", "{ delimiter: ';' }"),
  duckdb('DELIM tab', 'tab.tsv', "FORMAT csv, DELIM '\t'", '{ delimiter: "\\t" }'),
  duckdb("DELIM '|'", 'pipe.csv', "FORMAT csv, DELIM '|'", "{ delimiter: '|' }"),
  duckdb("QUOTE ''''", 'single.csv', "FORMAT csv, QUOTE ''''", `{ quote: "'", escape: '"' }`),
  duckdb("ESCAPE '\\'", 'escape.csv', "FORMAT csv, ESCAPE '\\'", "{ escape: '\\' }"),
  duckdb('HEADER false', 'bare.csv', 'FORMAT csv, HEADER false', '{ header: false }'),
  duckdb("NULLSTR 'NULL'", 'nullstr.csv', "FORMAT csv, NULLSTR 'NULL'", "{ null_values: ['NULL'] }"),
  duckdb("NULLSTR '\\N'", 'backslash-n.csv', "FORMAT csv, NULLSTR '\\N'", "{ null_values: ['\\N'] }"),
  duckdb('FORCE_QUOTE *', 'force.csv', 'FORMAT csv, FORCE_QUOTE *', '{}'),
  duckdb("FORCE_QUOTE * and NULLSTR 'NULL'", 'force-null.csv', "FORMAT csv, FORCE_QUOTE *, NULLSTR 'NULL'", "{ null_values: ['NULL'] }"),
  duckdb('COMPRESSION zstd', 'out.csv.zst', 'FORMAT csv, COMPRESSION zstd', '{}'),
  duckdb("COMPRESSION gzip, DELIM ';' and NULLSTR 'NULL'", 'out.csv.gz', "FORMAT csv, COMPRESSION gzip, DELIM ';', NULLSTR 'NULL'", "{ delimiter: ';', null_values: ['NULL'] }"),
  duckdb("COMPRESSION zstd, HEADER false and ESCAPE '\\'", 'bare.csv.zst', "FORMAT csv, COMPRESSION zstd, HEADER false, ESCAPE '\\'", "{ header: false, escape: '\\' }"),
  python('QUOTE_MINIMAL', 'quoting=csv.QUOTE_MINIMAL', '{}', true),
  python('QUOTE_ALL', 'quoting=csv.QUOTE_ALL', `{ null_values: ['""'] }`, true),
  python('QUOTE_NONNUMERIC', 'quoting=csv.QUOTE_NONNUMERIC', `{ null_values: ['', '""'] }`, true),
  python("QUOTE_NONE and escapechar='\\\\'", "quoting=csv.QUOTE_NONE, escapechar='\\\\'", "{ escape: '\\', escape_unquoted: true }", true),
  python("QUOTE_MINIMAL, escapechar='\\\\' and doublequote=False", "quoting=csv.QUOTE_MINIMAL, escapechar='\\\\', doublequote=False", "{ escape: '\\', escape_unquoted: true }", true),
  python("delimiter=';'", "delimiter=';'", "{ delimiter: ';' }", true),
  python("delimiter='\\t' and QUOTE_ALL", "delimiter='\\t', quoting=csv.QUOTE_ALL", `{ delimiter: "\\t", null_values: ['""'] }`, true),
  python("encoding='utf-16' (a byte order mark, then UTF-16LE)", 'quoting=csv.QUOTE_MINIMAL', '{ encoding: utf-16 }', true, 'utf-16'),
  python("encoding='utf-16-be' (no byte order mark)", 'quoting=csv.QUOTE_MINIMAL', '{ encoding: utf-16be }', true, 'utf-16-be'),
  python("encoding='cp1252' (Excel on Windows)", 'quoting=csv.QUOTE_MINIMAL', '{ encoding: windows-1252 }', true, 'cp1252'),
  python("encoding='latin-1'", 'quoting=csv.QUOTE_MINIMAL', '{ encoding: latin1 }', true, 'latin-1'),
  // Python 3.12+: None unquoted and empty, every string quoted, so '' and null differ.
  ...(pythonHas('QUOTE_STRINGS') ? [python('QUOTE_STRINGS', 'quoting=csv.QUOTE_STRINGS', '{}', false)] : []),
  ...(pythonHas('QUOTE_NOTNULL') ? [python('QUOTE_NOTNULL', 'quoting=csv.QUOTE_NOTNULL', '{}', false)] : []),
];

describe.each(CASES)('$what', ({ write, csv, emptyIsNull }) => {
  it('finds every planted violation, as DuckDB SQL over the source counts them', async () => {
    const bytes = await write();
    const report = await validate(dialectContract(csv), [memoryFile('part.csv', bytes)]);
    expect(counts(report)).toEqual(await expectedCounts(session.connection));
    expect(report.rows).toBe(DIALECT_ROWS);
  });

  it('reads every text value back as the source holds it, at any chunk size', async () => {
    const bytes = await write();
    for (const column of ['name', 'note'] as const) {
      const expected = await expectedText(session.connection, column, emptyIsNull);
      for (const chunkBytes of [undefined, 1, 7]) expect(await textColumn(open(bytes, csv, chunkBytes ? { chunkBytes } : {}), column)).toEqual(expected);
    }
  });

  it('reads the same values cut into byte ranges as whole', async () => {
    const bytes = await write();
    const ranges = await csvRanges(byteSourceFromBytes(bytes), 4, { dialect: dialectOf(csv), columns: CONTRACT_COLUMNS, chunkBytes: 64 });
    const pieces: unknown[] = [];
    for (const range of ranges) pieces.push(...(await textColumn(open(bytes, csv), 'note', range)));
    expect(pieces).toEqual(await expectedText(session.connection, 'note', emptyIsNull));
  });
});

describe('what reading without the dialect would do', () => {
  it.each([
    ['utf-16', 'set produces.csv.encoding: utf-16'],
    ['cp1252', ': if the file is written in another encoding, set produces.csv.encoding'],
  ])("refuses Python's encoding='%s' naming the encoding key", async (encoding, message) => {
    const report = await validate(dialectContract(), [memoryFile('part.csv', pythonCsv(rows, 'quoting=csv.QUOTE_MINIMAL', encoding))]);
    expect(report.violations.find((v) => v.rule === 'unreadable')?.samples[0]?.value).toContain(message);
  });

  it("passes Python's QUOTE_ALL nulls as empty strings without null_values: the declaration is what finds them", async () => {
    const bytes = pythonCsv(rows, 'quoting=csv.QUOTE_ALL');
    const report = await validate(dialectContract(), [memoryFile('part.csv', bytes)]);
    const { ['required:name']: nullNames, ...rest } = await expectedCounts(session.connection);
    expect(nullNames).toBeGreaterThan(0);
    expect(counts(report)).toEqual(rest);
  });

  it("refuses DuckDB's DELIM ';' naming the key to set", async () => {
    const report = await validate(dialectContract(), [memoryFile('semi.csv', await duckdbWrites('semi.csv', "FORMAT csv, DELIM ';'"))]);
    expect(report.violations[0]!.samples[0]!.value).toContain("set produces.csv.delimiter: ';'");
  });

  it("refuses a comma-separated file where the contract says ';', naming the key to set", async () => {
    const report = await validate(dialectContract("{ delimiter: ';' }"), [memoryFile('comma.csv', await duckdbWrites('comma.csv', 'FORMAT csv'))]);
    expect(report.violations[0]!.samples[0]!.value).toContain("set produces.csv.delimiter: ','");
  });

  it("refuses DuckDB's HEADER false naming produces.csv.header: false", async () => {
    const report = await validate(dialectContract(), [memoryFile('bare.csv', await duckdbWrites('bare.csv', 'FORMAT csv, HEADER false'))]);
    expect(counts(report)).toEqual({ unreadable: 1 });
    expect(report.violations[0]!.samples[0]!.value).toContain('set produces.csv.header: false');
  });

  it('refuses a file with a header where the contract says it has none', async () => {
    const report = await validate(dialectContract('{ header: false }'), [memoryFile('out.csv', await duckdbWrites('default.csv', 'FORMAT csv'))]);
    expect(counts(report)).toEqual({ unreadable: 1 });
    expect(report.violations[0]!.samples[0]!.value).toContain('set produces.csv.header: true');
  });

  it("refuses backslash escapes inside quotes of a file written with doubled quotes, rather than read C:\\p as C:p", async () => {
    const report = await validate(dialectContract("{ escape: '\\' }"), [memoryFile('default.csv', await duckdbWrites('default.csv', 'FORMAT csv'))]);
    expect(report.violations.find((v) => v.rule === 'unreadable')?.samples[0]?.value).toMatch(/the escape "\\\\" is followed by .*remove produces\.csv\.escape/);
  });
});
