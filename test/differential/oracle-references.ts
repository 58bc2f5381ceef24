import type { ColumnType } from '../../lib/contract/column-type.js';
import type { SpecContract } from './contract-spec.js';
import { duckdb, sqlIdent } from './duckdb-session.js';
import type { FileView } from './file-view.js';
import type { RowCount } from './oracle-rules.js';
import { countKey } from './outcome.js';
import type { SpecReferenceKeys } from './spec-facts.js';

/** The referenced keys as DuckDB tables, one per referencing column, and the columns whose keys the lake could not give. */
export interface ReferenceTables {
  readonly tables: ReadonlyMap<string, string>;
  readonly unavailable: readonly string[];
  drop(): Promise<void>;
}

let loaded = 0;

export async function loadReferenceKeys(references: ReadonlyMap<string, SpecReferenceKeys> | undefined): Promise<ReferenceTables> {
  const connection = await duckdb();
  const tables = new Map<string, string>();
  const unavailable: string[] = [];
  for (const [column, keys] of references ?? []) {
    if (!('keys' in keys)) {
      unavailable.push(column);
      continue;
    }
    const name = `reference_keys_${++loaded}`;
    await connection.run(`CREATE TABLE ${name} (k VARCHAR)`);
    const appender = await connection.createAppender(name);
    for (const key of keys.keys) {
      appender.appendVarchar(key);
      appender.endRow();
    }
    appender.closeSync();
    tables.set(column, name);
  }
  return { tables, unavailable, drop: async () => { for (const name of tables.values()) await connection.run(`DROP TABLE ${name}`); } };
}

/**
 * README, "References": every non-null value must be a key; counted per row, over the files that
 * store the column readably (a missing or mistyped column is reported as such), by an anti-join.
 */
export function referenceCounts(contract: SpecContract, view: FileView, keys: ReferenceTables): RowCount[] {
  const counts: RowCount[] = [];
  for (const [name, table] of keys.tables) {
    const access = view.columns.get(name);
    const column = contract.columns.find((c) => c.name === name);
    if (typeof access !== 'object' || !column) continue;
    const has = `(NOT ${access.isNull} AND NOT ${access.isInvalid})`;
    counts.push({ key: countKey('references', name), where: `(${has} AND ${keySpelling(column.type, access.value)} NOT IN (SELECT k FROM ${sqlIdent(table)}))` });
  }
  return counts;
}

/**
 * A value as referenceKey spells it: strings as they are, integers as decimal digits, dates and
 * timestamps as epoch milliseconds, with the fraction of one between two milliseconds (see
 * draw-references.ts keyText).
 */
function keySpelling(type: ColumnType, value: string): string {
  switch (type.kind) {
    case 'int32':
    case 'int64': return `CAST(${value} AS VARCHAR)`;
    case 'date': return `CAST(epoch_ms(CAST(${value} AS TIMESTAMP)) AS VARCHAR)`;
    // A timestamp's value is exact epoch nanoseconds (see timestampNanos).
    case 'timestamp':
    case 'timestamp_ntz': return `CASE WHEN ${value} % 1000000 = 0 THEN CAST(${value} // 1000000 AS VARCHAR) ELSE (CASE WHEN ${value} < 0 THEN '-' ELSE '' END) || CAST(abs(${value}) // 1000000 AS VARCHAR) || '.' || rtrim(lpad(CAST(abs(${value}) % 1000000 AS VARCHAR), 6, '0'), '0') END`;
    default: return value;
  }
}
