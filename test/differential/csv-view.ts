import type { SpecContract } from './contract-spec.js';
import { queryRows, sqlIdent } from './duckdb-session.js';
import { lackingColumn, sourceFor, type ColumnAccess, type FileView } from './file-view.js';
import { textIsValid, textValue } from './oracle-text.js';

/** A CSV file: every field is text, read by the README's type table; a column is missing or there. */
export async function csvView(contract: SpecContract, path: string): Promise<FileView> {
  const from = sourceFor('csv', path);
  const names = (await queryRows(`DESCRIBE SELECT * FROM ${from}`)).map((row) => String(row.column_name));
  const columns = new Map<string, ColumnAccess | 'missing' | 'mistyped'>();
  for (const column of contract.columns) {
    const raw = sqlIdent(column.name);
    if (!names.includes(column.name)) {
      columns.set(column.name, lackingColumn(contract, column));
      continue;
    }
    const text = column.type.kind === 'string' || column.type.kind === 'binary';
    // README: `""` is the empty string in a string or binary column and null in any other.
    const isNull = text ? `${raw} IS NULL` : `(${raw} IS NULL OR ${raw} = '')`;
    const valid = textIsValid(column.type, raw);
    columns.set(column.name, { isNull, isInvalid: `(NOT ${isNull} AND NOT ${valid})`, value: `CASE WHEN ${valid} THEN ${textValue(column.type, raw)} END` });
  }
  return { from, names, columns };
}
