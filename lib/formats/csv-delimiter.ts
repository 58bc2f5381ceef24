import { yamlValue } from '../contract/csv-dialect.js';

const CANDIDATES: readonly { readonly char: string; readonly name: string }[] = [
  { char: ',', name: 'comma' },
  { char: ';', name: 'semicolon' },
  { char: '\t', name: 'tab' },
  { char: '|', name: 'pipe' },
];

/**
 * Why a one-column header is more likely a file separated by something other than the declared
 * delimiter (DuckDB's `DELIMITER ';'`, pandas' `sep='\t'`, a European spreadsheet export), or
 * undefined. An undeclared delimiter is not sniffed: the file is refused, naming the key to set,
 * because the published table's readers split it as the contract says (the Athena DDL export
 * declares the same `separatorChar`), and a guess that reads today may misread tomorrow's file.
 */
export function otherDelimiter(header: string, declared = ',', columns: readonly string[] = []): string | undefined {
  const shown = header.length > 80 ? `${header.slice(0, 80)}…` : header;
  const declaredName = CANDIDATES.find((c) => c.char === declared)?.name ?? JSON.stringify(declared);
  const splits = CANDIDATES.filter(({ char }) => char !== declared).map((candidate) => ({ ...candidate, names: header.split(candidate.char) }));
  // The contract's own columns, split out of the header, say so for sure; any clean split is a good guess.
  const found = splits.find(({ names }) => names.length > 1 && names.every((n) => columns.includes(n))) ?? splits.find(({ names }) => names.length > 1 && !names.includes(''));
  if (found === undefined) return undefined;
  return `the CSV header ${JSON.stringify(shown)} is one column; it looks ${found.name}-separated, and the contract reads it ${declaredName}-separated: set produces.csv.delimiter: ${yamlValue(found.char)} if the producer writes it so, or write it with ${JSON.stringify(declared)} (DuckDB: DELIMITER ${yamlValue(declared)}; pandas: sep=${yamlValue(declared)})`;
}
