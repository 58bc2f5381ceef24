import type { ColumnSeverityRule, ColumnSpec, ContractSchema, RowTolerance } from '../contract/model.js';
import { formatColumnType } from '../contract/column-type.js';
import { dbtDataType, nativeOfDbtType, type DbtAdapter } from './dbt-adapters.js';
import { test, toleratedRows, valueTests, type DbtTest } from './dbt-column-tests.js';

export interface DbtColumn {
  name: string;
  description?: string;
  data_type: string;
  constraints?: { type: string }[];
  data_tests?: DbtTest[];
  meta?: { contract_gate: Record<string, unknown> };
}

/**
 * One column of the model: its warehouse type, NOT NULL and key constraints, and its rules as
 * tests (dbt-column-tests.ts). A warn rule's test runs with `severity: warn`, and its constraint
 * is left out: a warehouse that enforces NOT NULL or UNIQUE would fail the build on what the
 * contract only warns about. What dbt has no word for is kept in the column's
 * `meta.contract_gate`, which `import --from dbt` reads back: the contract type where the
 * warehouse type does not say it (BigQuery's one integer), a type rule at warn, a default, a
 * reference's pins.
 */
export function dbtColumn(column: ColumnSpec, schema: ContractSchema, tolerance: RowTolerance | undefined, adapter: DbtAdapter): DbtColumn {
  const warns = (rule: ColumnSeverityRule) => column.severity?.[rule] === 'warn';
  const notNull = column.required || schema.grain.includes(column.name);
  // A key the gate only warns about is tested on the model (to-dbt.ts).
  const key = schema.grain.length === 1 && schema.grain[0] === column.name && schema.severity?.grain !== 'warn';
  const uniqueWarns = !key && warns('unique');
  const constraints = [
    ...(notNull && !warns('required') ? ['not_null'] : []),
    ...(key && !uniqueWarns && !warns('required') ? ['primary_key'] : !key && column.unique && !uniqueWarns ? ['unique'] : []),
  ];
  const rows = toleratedRows(tolerance);
  const tests: DbtTest[] = [
    ...(notNull ? [test('not_null', {}, { warn: warns('required'), rows })] : []),
    ...(key || column.unique ? [test('unique', {}, { warn: uniqueWarns })] : []),
    ...valueTests(column, tolerance, adapter),
  ];
  const dataType = dbtDataType(column.type, adapter);
  const meta = columnMeta(column, nativeOfDbtType(dataType, adapter) !== formatColumnType(column.type));
  return {
    name: column.name,
    ...(column.description === undefined ? {} : { description: column.description }),
    data_type: dataType,
    ...(constraints.length === 0 ? {} : { constraints: constraints.map((type) => ({ type })) }),
    ...(tests.length === 0 ? {} : { data_tests: tests }),
    ...(meta ? { meta: { contract_gate: meta } } : {}),
  };
}

function columnMeta(column: ColumnSpec, typeUnsaid: boolean): Record<string, unknown> | undefined {
  const reference = column.references;
  const pinned = reference && (reference.major !== undefined || reference.partition !== undefined);
  const meta = {
    ...(typeUnsaid ? { type: formatColumnType(column.type) } : {}),
    // A contract's data_type is checked at build, where no severity applies.
    ...(column.severity?.type === 'warn' ? { severity: { type: 'warn' } } : {}),
    ...(column.default === undefined ? {} : { default: column.default }),
    ...(pinned ? { references: { ...reference } } : {}),
  };
  return Object.keys(meta).length === 0 ? undefined : meta;
}
