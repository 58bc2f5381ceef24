import type { DataFormat } from '../contract/model.js';
import { sniffCompression, type Compression } from './compression-magic.js';

/** What a file's first bytes show it is, as far as they can tell. */
export type SniffedFile =
  | { readonly kind: 'format'; readonly format: DataFormat }
  | { readonly kind: 'compressed'; readonly compression: Compression }
  | { readonly kind: 'text' };

/** Enough leading bytes to tell the formats apart and see a CSV header's first comma. */
export const SNIFF_BYTES = 256;

const NAMES: Readonly<Record<DataFormat, string>> = { parquet: 'Parquet', csv: 'CSV', jsonl: 'JSON Lines' };
const PAR1 = [0x50, 0x41, 0x52, 0x31];
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * The format a file starts like: Parquet by its magic, JSON Lines by a leading `{`, CSV by text
 * whose first line has a comma; other text, or bytes that are no text, say nothing certain.
 */
export function sniffFile(head: Uint8Array): SniffedFile | undefined {
  if (PAR1.every((byte, i) => head[i] === byte)) return { kind: 'format', format: 'parquet' };
  const compression = sniffCompression(head);
  if (compression) return { kind: 'compressed', compression };
  const start = UTF8_BOM.every((byte, i) => head[i] === byte) ? UTF8_BOM.length : 0;
  const text = head.subarray(start);
  // Control bytes other than tab and line ends do not occur in text a CSV or JSON writer emits.
  if (text.length === 0 || text.some((byte) => byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d)) return undefined;
  const firstLine = new TextDecoder().decode(text).split(/\r?\n/, 1)[0] ?? '';
  if (firstLine.trimStart().startsWith('{')) return { kind: 'format', format: 'jsonl' };
  return firstLine.includes(',') ? { kind: 'format', format: 'csv' } : { kind: 'text' };
}

/**
 * Why a file cannot be read as the contract's `produces.format` says, when its first bytes show
 * it is something else, with the two ways out; undefined when they agree or cannot tell. The
 * file is named by the caller (a report's sample, a command's message).
 */
export function formatMismatch(expected: DataFormat, head: Uint8Array): string | undefined {
  const found = sniffFile(head);
  if (!found) return undefined;
  if (found.kind === 'format') {
    if (found.format === expected) return undefined;
    return `it is a ${NAMES[found.format]} file, but the contract's produces.format is ${expected}: convert it to ${NAMES[expected]} (in DuckDB: COPY (FROM 'in.${found.format}') TO 'out.${expected}'${duckdbFormat(expected)}), or, if the dataset is ${NAMES[found.format]}, change produces.format to ${found.format}`;
  }
  // Text formats may be compressed (the readers inflate them); Parquet compresses inside the file.
  if (found.kind === 'compressed') {
    return expected === 'parquet' ? `it is a ${found.compression}-compressed file, not Parquet, which the contract's produces.format says: write the data as Parquet, or, if it is compressed CSV or JSON Lines, change produces.format to csv or jsonl` : undefined;
  }
  return expected === 'parquet' ? `it is text, not Parquet, which the contract's produces.format says: convert it to Parquet, or change produces.format to the format the file is in (csv or jsonl)` : undefined;
}

function duckdbFormat(format: DataFormat): string {
  if (format === 'csv') return ' (FORMAT csv, HEADER)';
  return format === 'jsonl' ? ' (FORMAT json)' : '';
}
