import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { registerJsPatternFunction } from './js-pattern-function.js';

let session: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;

/** One in-memory DuckDB per process, for the fallback writers and the oracle alike. */
export async function duckdb(): Promise<DuckDBConnection> {
  session ??= (async () => {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const connection = await instance.connect();
    await connection.run("SET TimeZone = 'UTC'");
    registerJsPatternFunction(connection);
    return { instance, connection };
  })();
  return (await session).connection;
}

export async function closeDuckdb(): Promise<void> {
  if (!session) return;
  const { instance, connection } = await session;
  session = undefined;
  connection.closeSync();
  instance.closeSync();
}

/** Rows of a query as plain objects; BIGINT and HUGEINT come back as bigint. */
export async function queryRows(sql: string): Promise<Record<string, unknown>[]> {
  const connection = await duckdb();
  return (await connection.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[];
}

export const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;
export const sqlIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
