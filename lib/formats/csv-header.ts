import type { ByteDialect } from './csv-byte-dialect.js';
import type { CsvRecord } from './csv-record.js';
import { otherDelimiter } from './csv-delimiter.js';
import { UnreadableError } from './table-file.js';

/** How a CSV file is read: its dialect, the longest record, and the contract's columns. */
export interface CsvLayout {
  readonly dialect: ByteDialect;
  readonly maxRecordBytes: number;
  /** The contract's columns, read as the file's when the dialect says it has no header. */
  readonly columns: readonly string[];
}

export const EMPTY_FILE = 'the CSV file is empty; it needs a header row naming the columns';

/** Checks the header record and returns its column names; `columns` are the contract's, to name the dialect key a misfit needs. */
export function headerNames(record: CsvRecord, columns: readonly string[] = []): string[] {
  if (record.problem !== undefined) {
    throw new UnreadableError(`the CSV header (line ${record.line}) cannot be read: ${record.problem}`);
  }
  if (record.blank) throw new UnreadableError(`the CSV header (line ${record.line}) is empty; the first line must name the columns`);
  const delimiter = record.fieldCount === 1 ? otherDelimiter(record.field(0) ?? '', record.dialect.dialect.delimiter, columns) : undefined;
  if (delimiter !== undefined) throw new UnreadableError(delimiter);
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (let k = 0; k < record.fieldCount; k++) {
    const name = record.field(k) ?? '';
    if (name === '') throw new UnreadableError(`column ${k + 1} of the CSV header has no name${dataHint(record, columns)}`);
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new UnreadableError(`duplicate column "${name}" in the header (columns ${earlier + 1} and ${k + 1})${dataHint(record, columns)}`);
    }
    seen.set(name, k);
    names.push(name);
  }
  const data = dataHint(record, columns);
  if (data !== '') throw new UnreadableError(`the CSV header ${JSON.stringify(names.join(record.dialect.dialect.delimiter))} names none of the contract's columns${data}`);
  return names;
}

/**
 * A first line that is a row of data, not a header: as many fields as the contract has columns,
 * none of them a column's name, one at least a number. Said as the key to set, since the other
 * reading (nine missing columns) hides that the file simply has no header.
 */
function dataHint(record: CsvRecord, columns: readonly string[]): string {
  if (columns.length === 0 || record.fieldCount !== columns.length) return '';
  const fields = Array.from({ length: record.fieldCount }, (_, k) => record.field(k));
  if (fields.some((f) => f !== null && columns.includes(f))) return '';
  if (!fields.some((f) => f === null || /^[-+]?\.?\d/.test(f))) return '';
  return `; it looks like a row of data: if the file has no header line, set produces.csv.header: false (the columns are then read in the contract's order)`;
}

/**
 * The first record of a file the contract says has no header: refused when it names the
 * contract's columns, which would otherwise be checked as a row of data.
 */
export function checkNotHeader(record: CsvRecord, columns: readonly string[]): void {
  if (record.problem !== undefined || record.fieldCount !== columns.length) return;
  const same = columns.every((name, k) => record.field(k) === name);
  if (same) throw new UnreadableError(`the first line (line ${record.line}) names the contract's columns, and produces.csv.header is false: if the producer writes a header line, set produces.csv.header: true (or remove it)`);
}
