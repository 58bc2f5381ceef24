import type { DuckDBConnection } from '@duckdb/node-api';
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sqlIdent, sqlString } from '../writers/index.js';
import { scratchPath } from '../writers/write-file.js';
import type { CsvDialect, HeldoutTable, HeldoutWriter } from './heldout-case.js';
import { packageVersion } from './heldout-cache.js';

const run = promisify(execFile);
const PYTHON_WRITER = fileURLToPath(new URL('./heldout-csv-write.py', import.meta.url));
const duckdb = () => `DuckDB (@duckdb/node-api ${packageVersion('@duckdb/node-api')})`;

/** DuckDB's `COPY src TO ... (FORMAT parquet, <options>)`. */
export function duckdbParquet(id: string, options: string): HeldoutWriter {
  return {
    id: `duckdb-${id}`, writer: duckdb(), settings: options, format: 'parquet', ext: 'parquet',
    write: async (connection, _table, path) => { await connection.run(`COPY src TO ${sqlString(path)} (FORMAT parquet, ${options})`); },
  };
}

/** DuckDB's `COPY src TO ... (FORMAT csv, <options>)`; `csv` is the dialect the contract declares for it. */
export function duckdbCsv(id: string, options: string, ext: string, csv?: CsvDialect): HeldoutWriter {
  return {
    id: `duckdb-csv-${id}`, writer: duckdb(), settings: options || 'defaults', format: 'csv', ext, ...(csv ? { csv } : {}),
    write: async (connection, _table, path) => { await connection.run(`COPY src TO ${sqlString(path)} (FORMAT csv${options ? `, ${options}` : ''})`); },
  };
}

export interface PythonCsvSettings {
  /** A `csv` module constant: QUOTE_MINIMAL, QUOTE_ALL, QUOTE_NONNUMERIC, QUOTE_NONE. */
  readonly quoting: string;
  readonly escapechar?: string;
  readonly encoding?: string;
}

/**
 * Python's `csv.writer` over the source rows: integers as `int` and decimals as `Decimal`, so
 * QUOTE_NONNUMERIC leaves them bare as a producer's numbers would be; None as the module writes it.
 */
export function pythonCsv(id: string, settings: PythonCsvSettings, csv?: CsvDialect): HeldoutWriter {
  const words = [`quoting=csv.${settings.quoting}`, settings.escapechar && `escapechar=${JSON.stringify(settings.escapechar)}`, settings.encoding && `encoding=${settings.encoding}`];
  return {
    id: `python-csv-${id}`, writer: 'Python 3 csv module', settings: words.filter(Boolean).join(', '), format: 'csv', ext: 'csv', ...(csv ? { csv } : {}),
    write: async (connection, table, path) => {
      const rows = scratchPath('jsonl');
      try {
        const texts = table.columns.map((c) => `CAST(${sqlIdent(c.name)} AS VARCHAR) AS ${sqlIdent(c.name)}`);
        await connection.run(`COPY (SELECT ${texts.join(', ')} FROM src) TO ${sqlString(rows)} (FORMAT json)`);
        const kinds = table.columns.map((c) => pythonKind(c.sqlType)).join(',');
        await run('python3', [PYTHON_WRITER, rows, path, settings.quoting, settings.escapechar ?? '', settings.encoding ?? 'utf-8', kinds]);
      } finally {
        await rm(rows, { force: true });
      }
    },
  };
}

function pythonKind(sqlType: string): string {
  if (/INT/i.test(sqlType)) return 'int';
  if (/^DECIMAL/i.test(sqlType)) return 'decimal';
  if (/^(DOUBLE|FLOAT)$/i.test(sqlType)) return 'float';
  return 'str';
}

/** The source rows as text, column by column (the JS writers' input), in row order. */
export async function sourceColumns(connection: DuckDBConnection, table: HeldoutTable, text: (column: HeldoutTable['columns'][number]) => string): Promise<(string | null)[][]> {
  const select = table.columns.map((c, i) => `CAST(${text(c)} AS VARCHAR) AS c${i}`);
  const columns = (await connection.runAndReadAll(`SELECT ${select.join(', ')} FROM src`)).getColumnsJS();
  return columns.map((values) => values.map((v) => (v === null ? null : String(v))));
}
