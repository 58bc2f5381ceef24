import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDuckDB, sqlIdent, sqlString } from '../writers/duckdb-session.js';
import type { CaseValue } from './row-cases.js';

/** A row to write: each column's value; `absent` values are left out of the row. */
export type CaseRow = Readonly<Record<string, CaseValue>>;

/** Writes each row as a JSON Lines file of one line, as the writer does; undefined for a row it cannot write. */
export type CaseWriter = (rows: readonly CaseRow[]) => Promise<(Uint8Array | undefined)[]>;

/**
 * DuckDB's `COPY (SELECT ...) TO 'x.jsonl' (FORMAT json)`, each value as the SQL type a table of
 * that kind holds: DECIMAL, BIGINT (HUGEINT past int64), DOUBLE, DATE, TIMESTAMPTZ, TIMESTAMP.
 */
export async function writeWithDuckDB(rows: readonly CaseRow[]): Promise<(Uint8Array | undefined)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-cases-duckdb-'));
  const session = await openDuckDB();
  try {
    const files: Uint8Array[] = [];
    for (const [index, row] of rows.entries()) {
      const path = join(dir, `${index}.jsonl`);
      const select = Object.entries(row).filter(([, value]) => value.kind !== 'absent').map(([name, value]) => `${duckdbValue(value)} AS ${sqlIdent(name)}`);
      await session.connection.run(`COPY (SELECT ${select.join(', ')}) TO ${sqlString(path)} (FORMAT json)`);
      files.push(new Uint8Array(readFileSync(path)));
    }
    return files;
  } finally {
    session.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function duckdbValue(value: CaseValue): string {
  switch (value.kind) {
    case 'null':
    case 'absent': return 'NULL';
    case 'string': return sqlString(value.value);
    // CAST of text: `-9223372036854775808::BIGINT` casts before it negates, and overflows.
    case 'integer': return `CAST(${sqlString(String(value.value))} AS ${value.value >= -(2n ** 63n) && value.value < 2n ** 63n ? 'BIGINT' : 'HUGEINT'})`;
    case 'float': return `CAST(${sqlString(String(value.value))} AS DOUBLE)`;
    case 'decimal': {
      const [whole = '', fraction = ''] = value.value.replace('-', '').split('.');
      return `CAST(${sqlString(value.value)} AS DECIMAL(${Math.max(whole.length + fraction.length, fraction.length + 1)}, ${fraction.length}))`;
    }
    case 'boolean': return value.value ? 'TRUE' : 'FALSE';
    case 'date': return `DATE ${sqlString(value.value)}`;
    case 'instant': return `TIMESTAMPTZ ${sqlString(value.value)}`;
    case 'wall': return `TIMESTAMP ${sqlString(value.value)}`;
  }
}

/**
 * apt installs pandas for the system python3, which a version manager's python3 earlier on PATH
 * may hide, so both are tried (PANDAS_PYTHON first), as the other pandas tests do.
 */
const CANDIDATES = [process.env.PANDAS_PYTHON, 'python3', '/usr/bin/python3'].filter((p): p is string => Boolean(p));
export const PANDAS_PYTHON = CANDIDATES.find((candidate) => spawnSync(candidate, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0);
export const PANDAS_MISSING = `\`python3 -c 'import pandas'\` fails for ${CANDIDATES.join(', ')}; install it with apt-get install -y python3-pandas or set PANDAS_PYTHON`;

/**
 * pandas' `to_json(orient='records', lines=True, date_format='iso')` of a one-row frame, each
 * value as pandas holds it: Decimal, int64, float, datetime64 with and without a zone. pandas
 * cannot hold an integer past int64, so such a row is not written.
 */
export async function writeWithPandas(rows: readonly CaseRow[]): Promise<(Uint8Array | undefined)[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-cases-pandas-'));
  try {
    const writable = (row: CaseRow) => Object.values(row).every((v) => v.kind !== 'integer' || (v.value >= -(2n ** 63n) && v.value < 2n ** 63n));
    const specs = rows.map((row, index) => ({ file: `${index}.jsonl`, row: writable(row) ? pandasRow(row) : null }));
    execFileSync(PANDAS_PYTHON!, [fileURLToPath(new URL('pandas-cases.py', import.meta.url)), dir], { input: JSON.stringify(specs), stdio: ['pipe', 'ignore', 'pipe'] });
    return specs.map((spec) => (spec.row === null ? undefined : new Uint8Array(readFileSync(join(dir, spec.file)))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function pandasRow(row: CaseRow): Record<string, [string, unknown]> {
  const present = Object.entries(row).filter(([, value]) => value.kind !== 'absent');
  // Integers travel as text: JSON numbers would round them past 2^53 on the way to Python.
  return Object.fromEntries(present.map(([name, value]) => [name, [value.kind, 'value' in value ? (typeof value.value === 'bigint' ? String(value.value) : value.value) : null]]));
}
