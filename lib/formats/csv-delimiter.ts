const CANDIDATES: readonly { readonly char: string; readonly name: string }[] = [
  { char: ';', name: 'semicolon' },
  { char: '\t', name: 'tab' },
  { char: '|', name: 'pipe' },
];

/**
 * Why a one-column header is more likely a file separated by something other than commas
 * (DuckDB's `DELIMITER ';'`, pandas' `sep='\t'`, a European spreadsheet export), or undefined.
 * Such a file is refused rather than read another way: the published table's readers (the
 * Athena DDL export declares `separatorChar ','`) would split it at commas.
 */
export function otherDelimiter(header: string): string | undefined {
  for (const { char, name } of CANDIDATES) {
    const names = header.split(char);
    if (names.length < 2 || names.some((n) => n === '')) continue;
    const shown = header.length > 80 ? `${header.slice(0, 80)}…` : header;
    return `the CSV header ${JSON.stringify(shown)} is one column; it looks ${name}-separated, and CSV here is comma-separated (RFC 4180), as the published table is read: write it with commas (DuckDB: DELIMITER ','; pandas: sep=',')`;
  }
  return undefined;
}
