import { isUtf8 } from 'node:buffer';
import type { ByteSource } from '../formats/byte-source.js';
import { parseObject } from '../formats/json-line-object.js';
import { inParts } from './part-chunks.js';
import { META_NAMES, reasonFields, unkeptNote, type ReasonFields } from './row-reasons.js';
import type { TextPiece } from './text-pieces.js';
import { textPieces } from './text-rewrite.js';
import type { WithheldFile } from './withheld-rows.js';

export interface TextSource {
  readonly file: WithheldFile;
  readonly source: ByteSource;
}

export interface TextRejectOptions {
  readonly maxRecordBytes: number;
  readonly chunkBytes: number;
  readonly partBytes: number;
}

const encoder = new TextEncoder();
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * rejected-rows.csv: `_file,_row,_rule,_column,_message,` and the source header, then per row the
 * five meta fields quoted and the record as the producer wrote it. CSV here is comma-separated
 * (csv-delimiter.ts refuses other delimiters), so the record follows a comma. When the files'
 * headers differ, the header ends in `_record` and each record is quoted as that one field.
 */
export async function rejectedCsv(files: readonly TextSource[], options: TextRejectOptions): Promise<{ chunks: AsyncGenerator<Uint8Array>; notes: string[] }> {
  const headers = await Promise.all(files.map((f) => csvHeader(f, options)));
  const shared = headers.every((h) => Buffer.compare(h, headers[0]!) === 0) ? headers[0] : undefined;
  const notes = shared || files.length === 0 ? [] : ['the files\' headers differ: each record is quoted whole in _record'];
  const header = concat([encoder.encode(`${META_NAMES.join(',')},`), shared ?? encoder.encode('_record'), Uint8Array.of(LF)]);
  return { chunks: inParts(csvLines(header, files, shared !== undefined, options), options.partBytes), notes };
}

async function* csvLines(header: Uint8Array, files: readonly TextSource[], verbatim: boolean, options: TextRejectOptions): AsyncGenerator<Uint8Array> {
  yield header;
  for (const row of withheldRows('csv', files, options)) {
    for await (const { fields, bytes, path, rowNumber } of row) {
      const record = bytes ? withoutLineEnd(bytes) : new Uint8Array(0);
      yield concat([encoder.encode(`${metaCsv(path, rowNumber, fields)},`), verbatim ? record : quotedBytes(record), Uint8Array.of(LF)]);
    }
  }
}

/**
 * rejected-rows.jsonl: per row `{"_file":…,"_row":…,"_rule":…,"_column":…,"_message":…,"_record":…}`
 * with the line verbatim when it is an object (in the dialect the checker reads, json-line.ts),
 * else the line as a JSON string (and, when it is not UTF-8, its bytes in `_record_base64`).
 */
export function rejectedJsonl(files: readonly TextSource[], options: TextRejectOptions): { chunks: AsyncGenerator<Uint8Array>; notes: string[] } {
  return { chunks: inParts(jsonLines(files, options), options.partBytes), notes: [] };
}

async function* jsonLines(files: readonly TextSource[], options: TextRejectOptions): AsyncGenerator<Uint8Array> {
  for (const row of withheldRows('jsonl', files, options)) {
    for await (const { fields, bytes, path, rowNumber, line } of row) {
      const meta = `{"_file":${JSON.stringify(path)},"_row":${rowNumber},"_rule":${JSON.stringify(fields.rule)},"_column":${JSON.stringify(fields.column)},"_message":${JSON.stringify(fields.message)},"_record":`;
      if (!bytes) {
        yield encoder.encode(`${meta}null}\n`);
        continue;
      }
      const record = withoutLineEnd(bytes);
      const isObject = typeof parseObject(record, line) !== 'string';
      const tail = isObject ? [record, encoder.encode('}\n')] : [encoder.encode(`${JSON.stringify(Buffer.from(record).toString('utf8'))}${isUtf8(record) ? '' : `,"_record_base64":${JSON.stringify(Buffer.from(record).toString('base64'))}`}}\n`)];
      yield concat([encoder.encode(meta), ...tail]);
    }
  }
}

interface WithheldRow {
  readonly path: string;
  readonly rowNumber: number;
  readonly line: number;
  readonly fields: ReasonFields;
  readonly bytes: Uint8Array | undefined;
}

/** Per file, its withheld rows with their reasons and bytes (read up to the last of them only). */
function* withheldRows(format: 'csv' | 'jsonl', files: readonly TextSource[], options: TextRejectOptions): Generator<AsyncGenerator<WithheldRow>> {
  for (const { file, source } of files) if (file.rows.length > 0) yield fileRows(format, file, source, options);
}

async function* fileRows(format: 'csv' | 'jsonl', file: WithheldFile, source: ByteSource, options: TextRejectOptions): AsyncGenerator<WithheldRow> {
  let k = 0;
  const pieces = textPieces(format, source, file.rows, { path: file.path, maxRecordBytes: options.maxRecordBytes, chunkBytes: options.chunkBytes, keepRest: false });
  for await (const piece of pieces as AsyncIterable<TextPiece>) {
    if (piece.kind !== 'withheld') continue;
    const fields = reasonFields(file.reasons[k++]!);
    const unkept = piece.bytes === undefined ? { ...fields, message: `${fields.message} ${unkeptNote(options.maxRecordBytes)}` } : fields;
    // The window under the bytes is reused by the next read: the row takes a copy.
    yield { path: file.path, rowNumber: piece.row, line: piece.line, fields: unkept, bytes: piece.bytes?.slice() };
  }
}

async function csvHeader({ file, source }: TextSource, options: TextRejectOptions): Promise<Uint8Array> {
  for await (const piece of textPieces('csv', source, [], { path: file.path, maxRecordBytes: options.maxRecordBytes, chunkBytes: options.chunkBytes, keepRest: false })) {
    if (piece.kind === 'header') return withoutLineEnd(piece.bytes).slice();
  }
  return new Uint8Array(0);
}

function metaCsv(path: string, row: number, fields: ReasonFields): string {
  return [path, String(row), fields.rule, fields.column ?? '', fields.message].map((v) => `"${v.replaceAll('"', '""')}"`).join(',');
}

function quotedBytes(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.of(QUOTE)];
  let from = 0;
  for (let i = bytes.indexOf(QUOTE); i !== -1; i = bytes.indexOf(QUOTE, i + 1)) {
    parts.push(bytes.subarray(from, i + 1), Uint8Array.of(QUOTE));
    from = i + 1;
  }
  parts.push(bytes.subarray(from), Uint8Array.of(QUOTE));
  return concat(parts);
}

/** A record without the LF or CRLF that ends it (a quoted newline inside it stays). */
function withoutLineEnd(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  if (bytes[end - 1] === LF) end--;
  if (bytes[end - 1] === CR) end--;
  return bytes.subarray(0, end);
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
