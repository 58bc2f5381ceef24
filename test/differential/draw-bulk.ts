import type { WriterVariant } from '../writers/logical-table.js';
import { buildTable } from './build-table.js';
import { drawContract } from './draw-contract.js';
import { BASE_NOW, type DrawnPartition } from './draw-partition.js';
import { drawRows } from './draw-rows.js';
import { drawSla } from './draw-sla.js';
import { duckdb, sqlIdent, sqlString } from './duckdb-session.js';
import { loadTable } from './duckdb-table.js';
import { drawLayouts } from './file-layout.js';
import type { Random } from './random-tools.js';

/**
 * A partition of one Parquet file of millions of rows in one row group: past the 4M values
 * (rows × columns read) above which contract-gate reads a row group in slices. The file resamples
 * a drawn table of a few thousand rows, so its plants are spread all over it. Keys are left out:
 * every resampled key repeats, and confirming millions of repeats is another test.
 */
export function drawBulkPartition(seed: number, rows: number, r: Random): DrawnPartition {
  const now = BASE_NOW + r.between(-86_400, 86_400) * 1000;
  const recipe = drawContract(seed, 'parquet', now, r);
  const contract = { ...recipe.contract, grain: [], columns: recipe.contract.columns.map((c) => ({ ...c, unique: false })) };
  const base = r.between(1000, 4000);
  const values = drawRows(contract, recipe.columns, base, r);
  const table = buildTable(contract, values, 0, base, drawLayouts(contract, 1, r)[0]!, r);
  return { contract: { ...contract, sla: drawSla(contract, [table], r, rows) }, tables: [table] };
}

/** Writes `rows` rows drawn (by a hash of the row number) from the table's rows, in one row group. */
export function bulkWriter(rows: number): WriterVariant {
  return {
    id: `duckdb-bulk-${rows}`,
    writer: 'duckdb',
    settings: `${rows} rows resampled, ROW_GROUP_SIZE 100000000`,
    async write(table, path) {
      const connection = await duckdb();
      const name = await loadTable(table);
      const columns = table.columns.map((c) => `s.${sqlIdent(c.name)}`).join(', ');
      const sample = `SELECT ${columns} FROM range(${rows}) g(i) JOIN (SELECT rowid AS k, * FROM ${name}) s ON s.k = hash(g.i) % ${table.rows} ORDER BY g.i`;
      try {
        await connection.run(`COPY (${sample}) TO ${sqlString(path)} (FORMAT parquet, ROW_GROUP_SIZE 100000000)`);
      } finally {
        await connection.run(`DROP TABLE ${name}`);
      }
    },
  };
}
