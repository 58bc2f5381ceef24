import { gunzipSync, constants } from 'node:zlib';
import type { DataFormat } from '../contract/model.js';
import { sniffCompression } from '../formats/compression-magic.js';

const EXTENSIONS: readonly [RegExp, DataFormat][] = [
  [/\.(parquet|pq)$/i, 'parquet'],
  [/\.csv$/i, 'csv'],
  [/\.(jsonl|ndjson|json)$/i, 'jsonl'],
];

/** Bytes enough to sniff a format: Parquet's magic, or the first character of the text. */
export const HEAD_BYTES = 4096;

/**
 * A file's format: by its name (`.parquet`, `.csv`, `.jsonl`, each maybe `.gz`), else by its
 * first bytes: Parquet's `PAR1`, a JSON object's `{`, and CSV otherwise. Gzip is looked into,
 * as the engine reads gzip whatever the file's name.
 */
export function detectFormat(path: string, head: Uint8Array): DataFormat {
  const name = path.replace(/\.(gz|gzip)$/i, '');
  const named = EXTENSIONS.find(([pattern]) => pattern.test(name));
  if (named) return named[1];
  if (String.fromCharCode(...head.subarray(0, 4)) === 'PAR1') return 'parquet';
  const text = sniffCompression(head) === 'gzip' ? inflatedHead(head) : head;
  const first = new TextDecoder().decode(text.subarray(0, 256)).trimStart()[0];
  return first === '{' ? 'jsonl' : 'csv';
}

function inflatedHead(head: Uint8Array): Uint8Array {
  try {
    // A sync flush takes a truncated stream: the head of a gzip file inflates as far as it goes.
    return gunzipSync(head, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return new Uint8Array();
  }
}
