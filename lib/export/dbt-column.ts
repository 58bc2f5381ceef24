import type { ColumnType } from '../contract/column-type.js';
import type { ColumnSpec, ContractSchema } from '../contract/model.js';
import { describeWithNotes, ruleNotes } from './rule-notes.js';

/**
 * Warehouse-neutral (ANSI) names, which Postgres, Redshift, Snowflake, DuckDB and Trino accept;
 * BigQuery and Spark spell some differently, so edit `data_type` there.
 *
 *   string varchar · int32 integer · int64 bigint · float32 real · float64 double precision ·
 *   decimal(p,s) decimal(p,s) · boolean boolean · date date ·
 *   timestamp timestamp with time zone (an instant) · timestamp_ntz timestamp (wall-clock) ·
 *   binary varbinary
 */
export function dbtDataType(type: ColumnType): string {
  switch (type.kind) {
    case 'string': return 'varchar';
    case 'int32': return 'integer';
    case 'int64': return 'bigint';
    case 'float32': return 'real';
    case 'float64': return 'double precision';
    case 'decimal': return `decimal(${type.precision},${type.scale})`;
    case 'boolean': return 'boolean';
    case 'date': return 'date';
    case 'timestamp': return 'timestamp with time zone';
    case 'timestamp_ntz': return 'timestamp';
    case 'binary': return 'varbinary';
  }
}

export interface DbtColumn {
  name: string;
  description?: string;
  data_type: string;
  constraints?: { type: string }[];
  data_tests?: (string | Record<string, unknown>)[];
}

/**
 * One column of the model. Only dbt core tests: the contract's other rules (ranges, patterns,
 * lengths, required_when, not_in_future) go into the description, since expressing them would
 * need dbt_utils or dbt_expectations, which a project may not have.
 */
export function dbtColumn(column: ColumnSpec, schema: ContractSchema): DbtColumn {
  const notNull = column.required || schema.grain.includes(column.name);
  const key = schema.grain.length === 1 && schema.grain[0] === column.name;
  const unique = key || column.unique;
  const notes = ruleNotes(column, ['range', 'pattern', 'length', 'requiredWhen', 'notInFuture']);
  const description = describeWithNotes(column.description, notes);
  const constraints = [...(notNull ? ['not_null'] : []), ...(key ? ['primary_key'] : column.unique ? ['unique'] : [])];
  const tests: DbtColumn['data_tests'] = [...(notNull ? ['not_null'] : []), ...(unique ? ['unique'] : [])];
  // The form without `arguments:` is the one every dbt version reads; 1.10+ only warns about it.
  if (column.enum) tests.push({ accepted_values: { values: [...column.enum] } });
  return {
    name: column.name,
    ...(description === undefined ? {} : { description }),
    data_type: dbtDataType(column.type),
    ...(constraints.length === 0 ? {} : { constraints: constraints.map((type) => ({ type })) }),
    ...(tests.length === 0 ? {} : { data_tests: tests }),
  };
}
