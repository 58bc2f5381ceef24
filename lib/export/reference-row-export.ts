import type { ColumnType } from '../contract/column-type.js';
import type { Contract, ExpectedCell, ReferenceCell, ReferenceRow } from '../contract/model.js';

/**
 * `reference_rows` for the export targets. A row schema (JSON Schema, ODCS) cannot say "the row
 * with this key holds these values in each partition", so they state it in words and keep the rows
 * as the contract writes them; dbt can test it, as an expression over the rows with the key.
 */

/** The rows in the contract's own YAML shape, for `x-contract-gate`, dbt's meta and ODCS custom properties. */
export function referenceRowsAsWritten(contract: Contract): Record<string, unknown>[] {
  return (contract.referenceRows ?? []).map((row) => ({
    key: Object.fromEntries(row.key.map((cell) => [cell.column, cell.value])),
    ...(row.expect.length > 0 ? { expect: Object.fromEntries(row.expect.map((cell) => [cell.column, expectedAsWritten(cell)])) } : {}),
    ...(row.required ? { required: true } : {}),
    ...(row.severity ? { severity: row.severity } : {}),
    ...(row.description ? { description: row.description } : {}),
  }));
}

function expectedAsWritten(cell: ExpectedCell): unknown {
  if (cell.absolute === undefined && cell.relative === undefined) return cell.value;
  return { value: cell.value, ...(cell.absolute === undefined ? {} : { absolute: cell.absolute }), ...(cell.relative === undefined ? {} : { relative: cell.relative }) };
}

/** One clause per row, e.g. `the row with order_id=1001 has amount 100 (within ±0.01) and is present in each partition`. */
export function referenceRowClauses(contract: Contract): string[] {
  return (contract.referenceRows ?? []).map((row) => {
    const holds = row.expect.map((cell) => `${cell.column} ${JSON.stringify(cell.value)}${tolerance(cell)}`).join(', ');
    const parts = [holds ? `has ${holds}` : undefined, row.required ? 'is present in each partition' : undefined].filter((p) => p !== undefined);
    return `the row with ${label(row.key)} ${parts.join(' and ')}${row.severity === 'warn' ? ' (severity warn: reported, not blocking)' : ''}`;
  });
}

/** dbt: the key as a `where`, and the expected values as an expression that is false for a null. */
export function referenceRowSql(row: ReferenceRow, types: ReadonlyMap<string, ColumnType>): { where: string; expression: string } | undefined {
  if (row.expect.length === 0) return undefined;
  const where = row.key.map((cell) => `${cell.column} = ${literal(cell, types.get(cell.column))}`).join(' and ');
  const expression = row.expect.map((cell) => `coalesce(${comparison(cell, types.get(cell.column))}, false)`).join(' and ');
  return { where, expression };
}

function comparison(cell: ExpectedCell, type: ColumnType | undefined): string {
  const bound = cell.absolute === undefined && cell.relative === undefined ? undefined : Math.max(cell.absolute ?? 0, (cell.relative ?? 0) * Math.abs(Number(cell.value)));
  return bound === undefined ? `${cell.column} = ${literal(cell, type)}` : `abs(${cell.column} - ${literal(cell, type)}) <= ${bound}`;
}

function literal(cell: ReferenceCell, type: ColumnType | undefined): string {
  const { value } = cell;
  if (type?.kind === 'date') return `cast('${value}' as date)`;
  if (type?.kind === 'timestamp' || type?.kind === 'timestamp_ntz') return `cast('${value}' as timestamp)`;
  if (typeof value === 'string' && (type?.kind === 'string' || type?.kind === 'binary')) return `'${value.replace(/'/g, "''")}'`;
  return String(value);
}

function label(key: readonly ReferenceCell[]): string {
  return key.map((cell) => `${cell.column}=${String(cell.value)}`).join(', ');
}

function tolerance(cell: ExpectedCell): string {
  const parts = [cell.absolute === undefined ? undefined : `±${cell.absolute}`, cell.relative === undefined ? undefined : `±${cell.relative * 100}%`].filter((p) => p !== undefined);
  return parts.length > 0 ? ` (within ${parts.join(' or ')})` : '';
}
