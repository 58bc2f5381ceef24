import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatColumnType, type ColumnType } from '../../lib/contract/column-type.js';
import { duckdbType, loadLogicalTable, openDuckDB, PARQUET_WRITERS, writeCached, type LogicalColumn } from '../writers/index.js';
import { differingRows } from './file-fidelity.js';
import { MATRIX_TABLES } from './matrix-tables.js';
import { contractTypeOf, storedColumns } from './oracle-schema.js';

function declaredType(column: LogicalColumn): ColumnType {
  return column.type === 'decimal' ? { kind: 'decimal', precision: column.precision ?? 18, scale: column.scale ?? 0 } : { kind: column.type };
}

// The matrix is only worth its comparisons if every writer stored the same data with the types
// a contract names: these tests check the writers (and this folder's adapters), not contract-gate.
// orders-clean is the orders generator without plants: it is checked by the orders table.
describe.each(MATRIX_TABLES.filter((t) => t.label !== 'orders-clean'))('the $label table', (table) => {
  let session: { connection: DuckDBConnection; close: () => void };
  beforeAll(async () => {
    session = await openDuckDB();
    await loadLogicalTable(session.connection, table.table(), 'reference', join(tmpdir(), `fidelity-${process.pid}-${table.label}.jsonl`));
  });
  afterAll(() => session?.close());

  describe.each(PARQUET_WRITERS)('written by $id', (variant) => {
    it('stores each column as the Parquet type of its contract type, as DuckDB and the Parquet spec read it', async () => {
      const path = await writeCached(variant, table.table(), table.label);
      const stored = await storedColumns(session.connection, path);
      const want = table.table().columns.map((c) => ({ name: c.name, duckType: duckdbType(c), contractType: formatColumnType(declaredType(c)) }));
      const found = stored.map((s) => {
        const type = contractTypeOf(s);
        return { name: s.name, duckType: s.duckType.replace('TIMESTAMP WITH TIME ZONE', 'TIMESTAMPTZ'), contractType: type ? formatColumnType(type) : 'unsupported' };
      });
      expect(found).toEqual(want);
    });

    it('holds exactly the logical rows, in order', async () => {
      const path = await writeCached(variant, table.table(), table.label);
      expect(await differingRows(session.connection, 'reference', path)).toBe(0);
    });
  });
});
