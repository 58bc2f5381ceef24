import type { CsvRecord } from './csv-record.js';
import { otherDelimiter } from './csv-delimiter.js';
import { UnreadableError } from './table-file.js';

export const EMPTY_FILE = 'the CSV file is empty; it needs a header row naming the columns';

/** Checks the header record and returns its column names. */
export function headerNames(record: CsvRecord): string[] {
  if (record.problem !== undefined) {
    throw new UnreadableError(`the CSV header (line ${record.line}) cannot be read: ${record.problem}`);
  }
  if (record.blank) throw new UnreadableError(`the CSV header (line ${record.line}) is empty; the first line must name the columns`);
  const delimiter = record.fieldCount === 1 ? otherDelimiter(record.field(0) ?? '') : undefined;
  if (delimiter !== undefined) throw new UnreadableError(delimiter);
  const names: string[] = [];
  const seen = new Map<string, number>();
  for (let k = 0; k < record.fieldCount; k++) {
    const name = record.field(k) ?? '';
    if (name === '') throw new UnreadableError(`column ${k + 1} of the CSV header has no name`);
    const earlier = seen.get(name);
    if (earlier !== undefined) {
      throw new UnreadableError(`duplicate column "${name}" in the header (columns ${earlier + 1} and ${k + 1})`);
    }
    seen.set(name, k);
    names.push(name);
  }
  return names;
}
