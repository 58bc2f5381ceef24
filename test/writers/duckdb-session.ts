import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/** SQL text for a name or a string, quoted so any column name or path is safe. */
export function sqlIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export function sqlString(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/**
 * Runs `work` on a fresh in-memory DuckDB, closed afterwards. The session time zone is UTC so
 * that casts between TIMESTAMP and TIMESTAMPTZ never shift an instant by the machine's zone.
 */
export async function withDuckDB<T>(work: (connection: DuckDBConnection) => Promise<T>): Promise<T> {
  const session = await openDuckDB();
  try {
    return await work(session.connection);
  } finally {
    session.close();
  }
}

/** A DuckDB session for several steps (a test file's beforeAll/afterAll); same settings as withDuckDB. */
export async function openDuckDB(): Promise<{ connection: DuckDBConnection; close: () => void }> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const close = () => {
    connection.closeSync();
    instance.closeSync();
  };
  try {
    await connection.run(`SET TimeZone = 'UTC'`);
  } catch (error) {
    close();
    throw error;
  }
  return { connection, close };
}

/** The rows of a query as plain objects, BigInt turned into numbers where they are safe. */
export async function queryRows(connection: DuckDBConnection, sql: string): Promise<Record<string, unknown>[]> {
  const rows = (await connection.runAndReadAll(sql)).getRowObjectsJS();
  return rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, plainValue(value)])));
}

function plainValue(value: unknown): unknown {
  if (typeof value !== 'bigint') return value;
  return Number.isSafeInteger(Number(value)) ? Number(value) : value;
}
