import type { ColumnType } from '../contract/column-type.js';
import type { ColumnSeverityRule, ColumnSpec, ContractSchema, RowTolerance } from '../contract/model.js';
import { describeWithNotes, referencePinNote, weighedRuleNotes } from './rule-notes.js';

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
  data_tests?: DbtTest[];
}

type DbtTest = string | Record<string, unknown>;

/**
 * One column of the model. Only dbt core tests: the contract's other rules (ranges, patterns,
 * lengths, required_when, not_in_future) go into the description, since expressing them would
 * need dbt_utils or dbt_expectations, which a project may not have.
 *
 * A warn rule's test runs with `severity: warn`, and its constraint is left out: a warehouse that
 * enforces NOT NULL or UNIQUE would fail the build on what the contract only warns about. With
 * `on_violation: { max_invalid_rows: N }` the row-level tests (not_null, accepted_values) warn up
 * to N failing rows and fail past them (`error_if: ">N"`), as the gate withholds up to N rows; a
 * share of the rows (`row_tolerance`) is no count dbt can compare with, so only the model's
 * description says it (to-dbt.ts).
 */
export function dbtColumn(column: ColumnSpec, schema: ContractSchema, tolerance?: RowTolerance): DbtColumn {
  const warns = (rule: ColumnSeverityRule) => column.severity?.[rule] === 'warn';
  const notNull = column.required || schema.grain.includes(column.name);
  const key = schema.grain.length === 1 && schema.grain[0] === column.name;
  // The key's uniqueness is the grain's rule, a column's own `unique` its own: an error in either holds.
  const uniqueWarns = (key ? schema.severity?.grain === 'warn' : true) && (column.unique ? warns('unique') : true);
  const notes = [...weighedRuleNotes(column, ['range', 'pattern', 'length', 'requiredWhen', 'notInFuture']), ...optional(referencePinNote(column))];
  const description = describeWithNotes(column.description, notes);
  const constraints = [
    ...(notNull && !warns('required') ? ['not_null'] : []),
    ...(key && !uniqueWarns && !warns('required') ? ['primary_key'] : !key && column.unique && !uniqueWarns ? ['unique'] : []),
  ];
  const rows = tolerance && 'maxInvalidRows' in tolerance ? tolerance.maxInvalidRows : undefined;
  const tests: DbtTest[] = [
    ...(notNull ? [test('not_null', {}, warns('required'), rows)] : []),
    ...(key || column.unique ? [test('unique', {}, uniqueWarns)] : []),
    // The form without `arguments:` is the one every dbt version reads; 1.10+ only warns about it.
    ...(column.enum ? [test('accepted_values', { values: [...column.enum] }, warns('enum'), rows)] : []),
    ...(column.references ? [test('relationships', { to: `ref('${column.references.contract}')`, field: column.references.column }, warns('references'))] : []),
  ];
  return {
    name: column.name,
    ...(description === undefined ? {} : { description }),
    data_type: dbtDataType(column.type),
    ...(constraints.length === 0 ? {} : { constraints: constraints.map((type) => ({ type })) }),
    ...(tests.length === 0 ? {} : { data_tests: tests }),
  };
}

/** A test by name when it needs nothing else, the form dbt schema files use most. */
function test(name: string, args: Record<string, unknown>, warn: boolean, rows?: number): DbtTest {
  const config = warn ? { severity: 'warn' } : rows !== undefined && rows > 0 ? { error_if: `>${rows}` } : undefined;
  if (!config && Object.keys(args).length === 0) return name;
  return { [name]: { ...args, ...(config ? { config } : {}) } };
}

function optional(note: string | undefined): string[] {
  return note === undefined ? [] : [note];
}
