import { gzipSync } from 'node:zlib';
import { byteSourceFromBytes, type ByteSource } from '../../lib/formats/byte-source.js';
import { openCsvFile } from '../../lib/formats/csv-file.js';
import { openJsonLinesFile } from '../../lib/formats/jsonl-file.js';

/** One part of a text file: its bytes, and the data row it is (undefined: header, blank line, BOM). */
export interface TextPart {
  readonly text: string;
  readonly row?: number;
}

/** Parts from lines; a pair marks a part that is not a row (a BOM, the header, a blank line). */
export function parts(...lines: readonly (string | [string, 'not a row'])[]): TextPart[] {
  let row = 0;
  return lines.map((line) => (Array.isArray(line) ? { text: line[0] } : { text: line, row: row++ }));
}

export function bytesOf(list: readonly TextPart[], withheld: ReadonlySet<number> = new Set()): Buffer {
  return Buffer.from(list.filter((p) => p.row === undefined || !withheld.has(p.row)).map((p) => p.text).join(''), 'utf8');
}

export function rowCount(list: readonly TextPart[]): number {
  return list.filter((p) => p.row !== undefined).length;
}

/**
 * A CSV with every shape the checker numbers: a byte order mark, CRLF, a quoted newline and
 * quote, a blank line (no row, the file has two columns), a ragged record (a row that cannot
 * be read), and a last record with no newline.
 */
export const CSV_MIXED = parts(
  ['\uFEFFid,text\r\n', 'not a row'],
  '1,plain\r\n',
  '2,"multi\r\nline, with comma"\r\n',
  ['\r\n', 'not a row'],
  '3,"a ""quote"" inside"\r\n',
  '4,ragged,extra field\r\n',
  '5,"ünïcödé 🙂"\n',
  '6,last',
);

/** One column: a blank line is a row there (a null value), as DuckDB writes one. */
export const CSV_ONE_COLUMN = parts(['v\n', 'not a row'], 'a\n', '\n', 'b\n', '\n');

/** JSON Lines: BOM, CRLF, blank and whitespace lines (no rows), a line that is no JSON, one that is no object, no final newline. */
export const JSONL_MIXED = parts(
  ['\uFEFF', 'not a row'],
  '{"id":1}\r\n',
  ['\n', 'not a row'],
  ['  \t\r\n', 'not a row'],
  '{"id":2,"s":"a\\nb","n":NaN}\n',
  'not json at all\n',
  '[1,2,3]\n',
  '{"id":5, "big": 12345678901234567890}\n',
  '{"id":6}',
);

export function gzipped(bytes: Uint8Array): Buffer {
  return gzipSync(bytes);
}

export function source(bytes: Uint8Array): ByteSource {
  return byteSourceFromBytes(bytes);
}

/** Every row as the checker's reader sees it: the id, or "unreadable". */
export async function readerRows(format: 'csv' | 'jsonl', bytes: Uint8Array, column: string, options: { chunkBytes?: number; maxRecordBytes?: number } = {}): Promise<unknown[]> {
  const table = format === 'csv' ? openCsvFile(source(bytes), options) : openJsonLinesFile(source(bytes), { ...options, ...(options.maxRecordBytes ? { maxLineBytes: options.maxRecordBytes } : {}) });
  const out: unknown[] = [];
  for await (const batch of table.batches([column])) {
    const bad = new Set((batch.unreadableRows ?? []).map((u) => u.row));
    for (let i = 0; i < batch.rowCount; i++) out.push(bad.has(batch.rowStart + i) ? 'unreadable' : batch.columns.get(column)?.[i]);
  }
  return out;
}
