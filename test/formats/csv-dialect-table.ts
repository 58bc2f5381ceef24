import { execFileSync } from 'node:child_process';
import type { DuckDBConnection } from '@duckdb/node-api';
import { contractFrom } from '../fixtures/partition.js';
import type { Contract } from '../../lib/contract/model.js';
import { queryRows } from '../writers/duckdb-session.js';

/**
 * A source table for CSV dialect tests: text that needs every kind of quoting and escaping
 * (delimiters of every dialect, quotes, backslashes, newlines, the texts NULL and \N, empty
 * strings), with planted violations: null required names, amounts and quantities out of range.
 * DuckDB SQL over it is the oracle; the same rows go to Python's csv module.
 */
export const DIALECT_ROWS = 90;

const TRICKY = [`'a"b'`, `'x,y'`, `'x;y'`, `'tab' || chr(9) || 'x'`, `'pipe|x'`, `'C:\\p'`, `'end\\'`, `'q''s'`, `'multi' || chr(10) || 'line'`, `'NULL'`, `'\\N'`, `'two\\\\x'`, `'"quoted"'`, `'café'`, `'plain'`];

export const DIALECT_TABLE_SQL = `CREATE TABLE t AS SELECT
  i::BIGINT AS id,
  CASE WHEN i % 9 = 4 THEN NULL WHEN i % 3 = 0 THEN (${sqlList(TRICKY)})[1 + i % ${TRICKY.length}] ELSE (${sqlList(TRICKY)})[1 + i % ${TRICKY.length}] || '#' || i END AS name,
  CASE WHEN i % 5 = 1 THEN NULL WHEN i % 5 = 2 THEN '' ELSE (${sqlList(TRICKY)})[1 + (i * 7) % ${TRICKY.length}] END AS note,
  CASE WHEN i % 7 = 3 THEN 1500.5 WHEN i % 13 = 6 THEN -2.25 ELSE (i * 3.5)::DOUBLE END AS amount,
  CASE WHEN i % 11 = 5 THEN 250 ELSE i END::INTEGER AS qty
FROM range(${DIALECT_ROWS}) r(i)`;

function sqlList(items: readonly string[]): string {
  return `[${items.join(', ')}]`;
}

/** The contract the table is checked against, with `csv` as the `produces.csv` flow mapping. */
export function dialectContract(csv?: string): Contract {
  return contractFrom(`name: dialects
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv${csv === undefined ? '' : `, csv: ${csv}`} }
schema:
  grain: [id]
  columns:
    - { name: id, type: int64, required: true }
    - { name: name, type: string, required: true }
    - { name: note, type: string }
    - { name: amount, type: float64, min: 0, max: 1000 }
    - { name: qty, type: int32, max: 100 }
`);
}

/** The violation counts DuckDB SQL finds in the source, as `counts(report)` lists them; `emptyIsNull` for writers that write '' and null alike. */
export async function expectedCounts(connection: DuckDBConnection): Promise<Record<string, number>> {
  const [row] = await queryRows(connection, `SELECT
    count(*) FILTER (WHERE name IS NULL) AS "required:name",
    count(*) FILTER (WHERE amount < 0) AS "min:amount",
    count(*) FILTER (WHERE amount > 1000) AS "max:amount",
    count(*) FILTER (WHERE qty > 100) AS "max:qty"
  FROM t`);
  return Object.fromEntries(Object.entries(row!).filter(([, n]) => Number(n) > 0).map(([k, n]) => [k, Number(n)]));
}

/** The source's text column in row order; `emptyIsNull` where the writer writes '' as it writes null. */
export async function expectedText(connection: DuckDBConnection, column: 'name' | 'note', emptyIsNull: boolean): Promise<(string | null)[]> {
  const rows = await queryRows(connection, `SELECT ${emptyIsNull ? `NULLIF(${column}, '')` : column} AS v FROM t ORDER BY id`);
  return rows.map((r) => r.v as string | null);
}

/** The table's rows for Python: id, name, note, amount, qty in order. */
export async function sourceRows(connection: DuckDBConnection): Promise<unknown[][]> {
  const rows = await queryRows(connection, 'SELECT id, name, note, amount, qty FROM t ORDER BY id');
  return rows.map((r) => [r.id, r.name, r.note, r.amount, r.qty]);
}

/**
 * The bytes Python's csv.writer writes for the rows, header first, with `args` (Python keyword
 * arguments, e.g. `quoting=csv.QUOTE_ALL`): each run of `python3 -c` is the writer.
 */
export function pythonCsv(rows: readonly unknown[][], args: string, encoding = 'utf-8'): Uint8Array {
  // Encoded whole, as open(path, 'w', encoding=...) writes a file: a pipe would get no UTF-16 byte order mark.
  const script = `import csv, io, json, sys
rows = json.load(sys.stdin)
out = io.StringIO(newline='')
w = csv.writer(out, ${args})
w.writerow(['id', 'name', 'note', 'amount', 'qty'])
w.writerows(rows)
sys.stdout.buffer.write(out.getvalue().encode('${encoding}'))`;
  return new Uint8Array(execFileSync('python3', ['-c', script], { input: JSON.stringify(rows), maxBuffer: 1 << 26 }));
}

/** Whether this python3's csv module has a quoting mode (QUOTE_STRINGS, QUOTE_NOTNULL: Python 3.12+). */
export function pythonHas(mode: string): boolean {
  try {
    execFileSync('python3', ['-c', `import csv; csv.${mode}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
