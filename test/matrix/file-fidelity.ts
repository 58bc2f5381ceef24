import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows, sqlString } from '../writers/index.js';

/**
 * Rows that differ between the DuckDB table `reference` (loaded from a logical table, in order)
 * and a Parquet file, each row compared whole with its position: 0 when the file holds exactly
 * the logical rows in order. NaN equals NaN here, as it does in DuckDB's set operations.
 */
export async function differingRows(connection: DuckDBConnection, reference: string, file: string): Promise<number> {
  const fromFile = `SELECT file_row_number AS rn, * EXCLUDE (file_row_number) FROM read_parquet(${sqlString(file)}, file_row_number = true)`;
  const fromReference = `SELECT rowid AS rn, * FROM ${reference}`;
  const sql = `SELECT count(*) AS n FROM ((${fromReference} EXCEPT ALL ${fromFile}) UNION ALL (${fromFile} EXCEPT ALL ${fromReference}))`;
  return Number((await queryRows(connection, sql))[0]!.n);
}
