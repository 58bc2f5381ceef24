import { pipeline, Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { ByteSource } from '../formats/byte-source.js';
import { sourceCompression } from '../formats/compression-magic.js';
import { ChunkWindow } from '../formats/line-scanner.js';
import { textChunks } from '../formats/text-chunks.js';
import { csvPieces } from './csv-pieces.js';
import { jsonlPieces } from './jsonl-pieces.js';
import { inParts } from './part-chunks.js';
import type { TextPiece, TextWalkOptions } from './text-pieces.js';

export interface TextOptions {
  readonly path: string;
  readonly maxRecordBytes: number;
  readonly chunkBytes: number;
  readonly partBytes: number;
}

/** A CSV or JSON Lines file's text cut at `rows`, by the checker's own scanners. */
export function textPieces(format: 'csv' | 'jsonl', source: ByteSource, rows: readonly number[], options: Omit<TextOptions, 'partBytes'> & Pick<TextWalkOptions, 'keepRest'>): AsyncGenerator<TextPiece> {
  const window = new ChunkWindow(textChunks(source, options.chunkBytes));
  return (format === 'csv' ? csvPieces : jsonlPieces)(window, rows, options);
}

/** The text without the withheld rows' bytes, compressed again when the source is gzip. */
export async function* rewriteText(format: 'csv' | 'jsonl', source: ByteSource, rows: readonly number[], options: TextOptions): AsyncGenerator<Uint8Array> {
  const kept = keptBytes(textPieces(format, source, rows, { ...options, keepRest: true }));
  yield* inParts((await sourceCompression(source)) === 'gzip' ? gzipped(kept) : kept, options.partBytes);
}

/** Kept pieces as copies: the window they view is reused on the next read. */
async function* keptBytes(pieces: AsyncIterable<TextPiece>): AsyncGenerator<Uint8Array> {
  for await (const piece of pieces) if (piece.kind !== 'withheld' && piece.bytes.length > 0) yield piece.bytes.slice();
}

/** One gzip stream of the pieces, read as it is made; a failure of the pieces ends it with that error. */
async function* gzipped(pieces: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  const gzip = createGzip();
  const out = pipeline(Readable.from(pieces, { objectMode: true, highWaterMark: 1 }), gzip, () => {});
  yield* out as AsyncIterable<Buffer>;
}
