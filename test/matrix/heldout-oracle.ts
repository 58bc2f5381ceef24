import type { DuckDBConnection } from '@duckdb/node-api';
import { parseColumnType } from '../../lib/contract/column-type.js';
import { queryRows, sqlIdent, sqlString } from '../writers/index.js';
import type { RuleCounts } from './duckdb-oracle.js';
import type { HeldoutCase, HeldoutColumn } from './heldout-case.js';
import type { Measure } from './oracle-measures.js';
import { accepts, contractTypeOf } from './oracle-schema.js';

/**
 * What validating the case's file must find, computed by DuckDB over the SOURCE table `src`, not
 * over the written file: a writer or reader that loses a value cannot hide it from this oracle.
 * Every comparison is exact, in the column's own type (decimals at their scale, integers as
 * HUGEINT, timestamps at their unit), against the bound's text as the contract writes it; the
 * rules' meaning is the README's (a null only under `required`; a NaN under `min`, or `max` when
 * there is no minimum; ±Infinity compare as numbers).
 */
export async function sourceCounts(connection: DuckDBConnection, c: HeldoutCase, now: number): Promise<RuleCounts> {
  const counts: Record<string, number> = {};
  const checkable: HeldoutColumn[] = [];
  const described = new Map((await queryRows(connection, 'DESCRIBE src')).map((row) => [String(row.column_name), String(row.column_type)]));
  for (const column of c.table.columns) {
    // A CSV column has no stored type: its values are text the contract's type parses.
    if (c.writer.format === 'parquet' && !storedTypeAccepted(column, described.get(column.name)!)) counts[`type:${column.name}`] = 1;
    else checkable.push(column);
  }
  const measures = checkable.flatMap((column) => columnMeasures(column, now));
  const select = measures.map((m, i) => `, count(*) FILTER (WHERE ${m.where}) AS m${i}`).join('');
  const [totals] = await queryRows(connection, `SELECT count(*) AS rows${select} FROM src`);
  measures.forEach((m, i) => {
    const n = Number(totals![`m${i}`]);
    if (n > 0) counts[m.key] = (counts[m.key] ?? 0) + n;
  });
  return { rows: Number(totals!.rows), counts };
}

/** The README's type rules (oracle-schema.ts) applied to the type the writer was given. */
function storedTypeAccepted(column: HeldoutColumn, duckType: string): boolean {
  const stored = contractTypeOf({ name: column.name, duckType, wallClock: duckType !== 'TIMESTAMP WITH TIME ZONE' });
  const declared = parseColumnType(column.type);
  if (!declared) throw new Error(`column ${column.name}: ${column.type} is no contract type`);
  return stored !== undefined && accepts(declared, stored);
}

function columnMeasures(column: HeldoutColumn, now: number): Measure[] {
  const c = sqlIdent(column.name);
  const key = (rule: string) => `${rule}:${column.name}`;
  const measures: Measure[] = [];
  if (column.required) measures.push({ key: key('required'), where: `${c} IS NULL` });
  if (column.enum) measures.push({ key: key('enum'), where: `${c} NOT IN (${column.enum.map(sqlString).join(', ')})` });
  if (column.pattern) measures.push({ key: key('pattern'), where: `NOT regexp_matches(${c}, ${sqlString(column.pattern)})` });
  if (column.minLength !== undefined || column.maxLength !== undefined) {
    measures.push({ key: key('length'), where: `length(${c}) < ${column.minLength ?? 0} OR length(${c}) > ${column.maxLength ?? 2 ** 53}` });
  }
  const nan = /^(DOUBLE|FLOAT|REAL)$/i.test(column.sqlType) ? `isnan(${c})` : undefined;
  if (column.min !== undefined) {
    const { value, bound } = ordered(column, column.min);
    measures.push({ key: key('min'), where: nan ? `${nan} OR ${value} < ${bound}` : `${value} < ${bound}` });
  }
  if (column.max !== undefined) {
    const { value, bound } = ordered(column, column.max);
    const nanHere = nan && column.min === undefined;
    measures.push({ key: key('max'), where: nan ? `${nanHere ? `${nan} OR` : `NOT ${nan} AND`} ${value} > ${bound}` : `${value} > ${bound}` });
  }
  if (column.notInFuture) {
    const instant = new Date(now).toISOString();
    const where = /^DATE$/i.test(column.sqlType) ? `CAST(${c} AS TIMESTAMP) > CAST(${sqlString(instant)} AS TIMESTAMP)` : `${c} > CAST(${sqlString(instant)} AS ${column.sqlType})`;
    measures.push({ key: key('not_in_future'), where });
  }
  return measures;
}

const INTEGER = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT)$/i;

/** The column and a bound as SQL of one exact type. */
function ordered(column: HeldoutColumn, text: string): { value: string; bound: string } {
  const c = sqlIdent(column.name);
  const type = column.sqlType.toUpperCase();
  if (/^(DATE|TIMESTAMP)/.test(type)) return { value: c, bound: `CAST(${sqlString(text)} AS ${type})` };
  const decimal = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(type);
  if (decimal) {
    const scale = Number(decimal[2]);
    if ((/\.(\d*)$/.exec(text)?.[1]?.length ?? 0) > scale) throw new Error(`${column.name}: bound ${text} has more digits than scale ${scale}; the oracle would round it`);
    return { value: `CAST(${c} AS DECIMAL(38,${scale}))`, bound: `CAST(${sqlString(text)} AS DECIMAL(38,${scale}))` };
  }
  if (INTEGER.test(type)) {
    if (!/^-?\d+$/.test(text)) throw new Error(`${column.name}: bound ${text} of an integer column must be an integer here`);
    return { value: `CAST(${c} AS HUGEINT)`, bound: `CAST(${sqlString(text)} AS HUGEINT)` };
  }
  if (/^(DOUBLE|FLOAT|REAL)$/.test(type)) return { value: `CAST(${c} AS DOUBLE)`, bound: `CAST(${sqlString(text)} AS DOUBLE)` };
  throw new Error(`${column.name}: no bounds on ${type} in the held-out oracle`);
}
