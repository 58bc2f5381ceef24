import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDuckDB, sqlIdent, sqlString } from '../writers/duckdb-session.js';
import { KNOB_COLUMNS, KNOB_ROWS } from './text-knobs-table.js';

const SQL_TYPES: Record<string, string> = {
  int64: 'BIGINT', int32: 'INTEGER', float64: 'DOUBLE', 'decimal(12,2)': 'DECIMAL(12,2)', boolean: 'BOOLEAN',
  date: 'DATE', timestamp: 'TIMESTAMPTZ', timestamp_ntz: 'TIMESTAMP', string: 'VARCHAR',
};

const TABLE_SQL = `CREATE TABLE t AS SELECT * FROM (VALUES ${Array.from({ length: KNOB_ROWS }, (_, row) =>
  `(${KNOB_COLUMNS.map((c) => `CAST(${c.values[row] === null ? 'NULL' : sqlString(c.values[row]!)} AS ${SQL_TYPES[c.type]})`).join(', ')})`).join(',\n')}) v(${KNOB_COLUMNS.map((c) => sqlIdent(c.name)).join(', ')})`;

/** The knob table in a DuckDB session, written by COPY with a producer's options (and session settings), read back as bytes. */
export interface DuckdbKnobWriter {
  writes(name: string, options: string, setup?: readonly string[]): Promise<Uint8Array>;
  close(): void;
}

export async function openDuckdbKnobWriter(prefix: string): Promise<DuckdbKnobWriter> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const session = await openDuckDB();
  await session.connection.run(TABLE_SQL);
  return {
    async writes(name, options, setup = []) {
      const path = join(dir, name);
      for (const statement of setup) await session.connection.run(statement);
      try {
        await session.connection.run(`COPY t TO ${sqlString(path)} (${options})`);
      } finally {
        await session.connection.run(`SET TimeZone = 'UTC'`);
      }
      return new Uint8Array(readFileSync(path));
    },
    close() {
      session.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
