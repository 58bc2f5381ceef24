import { describeError } from '../errors.js';
import type { ByteSource } from './byte-source.js';
import { ChunkWindow, DEFAULT_BATCH_ROWS, DEFAULT_CHUNK_BYTES, DEFAULT_MAX_RECORD_BYTES, LineScanner, type LineSink, type TextReadOptions } from './line-scanner.js';
import type { ColumnBatch, TableFile, UnreadableRow } from './table-file.js';
import { parseJsonLine } from './json-line.js';
import { textChunks } from './text-chunks.js';

export interface JsonLinesOptions extends TextReadOptions {
  /** A longer line is reported unreadable and skipped unbuffered (default 16 MiB). */
  readonly maxLineBytes?: number;
}

/** JSON.parse messages can quote the input; a reason should not carry megabytes of it. */
const MAX_REASON_CHARS = 300;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

type JsonObject = Record<string, unknown>;

/** Collects parsed lines into batches of the requested keys, as a LineSink. */
class JsonLinesBatchBuilder implements LineSink {
  readonly ready: ColumnBatch[] = [];
  private rowStart = 0;
  private count = 0;
  private unreadable: UnreadableRow[] = [];
  private keys = new Set<string>();
  private values: unknown[][];
  private readonly names: readonly string[];

  constructor(
    columns: readonly string[],
    private readonly batchRows: number,
    private readonly maxLineBytes: number,
  ) {
    this.names = [...new Set(columns)];
    this.values = this.names.map(() => []);
  }

  line(lineNumber: number, bytes: Uint8Array): void {
    if (isBlank(bytes)) return;
    const parsed = parseObject(bytes, lineNumber);
    if (typeof parsed === 'string') return this.addUnreadable(lineNumber, parsed);
    for (let i = 0; i < this.names.length; i++) {
      const name = this.names[i]!;
      this.values[i]!.push(Object.hasOwn(parsed, name) ? parsed[name] : undefined);
    }
    for (const key of Object.keys(parsed)) this.keys.add(key);
    this.rowAdded();
  }

  tooLong(lineNumber: number): void {
    this.addUnreadable(lineNumber, `line is longer than the ${this.maxLineBytes}-byte limit (maxLineBytes)`);
  }

  flush(): void {
    if (this.count === 0) return;
    const columns = new Map<string, ArrayLike<unknown>>(this.names.map((name, i) => [name, this.values[i]!]));
    const batch: ColumnBatch = { rowStart: this.rowStart, rowCount: this.count, columns, keys: this.keys };
    this.ready.push(this.unreadable.length > 0 ? { ...batch, unreadableRows: this.unreadable } : batch);
    this.rowStart += this.count;
    this.count = 0;
    this.unreadable = [];
    this.keys = new Set();
    this.values = this.names.map(() => []);
  }

  takeReady(): ColumnBatch[] {
    return this.ready.splice(0);
  }

  private addUnreadable(line: number, reason: string): void {
    this.unreadable.push({ row: this.rowStart + this.count, line, reason });
    for (const column of this.values) column.push(undefined);
    this.rowAdded();
  }

  private rowAdded(): void {
    if (++this.count === this.batchRows) this.flush();
  }
}

/** Whitespace-only lines separate rows in many writers' output; they are not rows. */
function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The line's object, or why it is not one. */
function parseObject(bytes: Uint8Array, lineNumber: number): JsonObject | string {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return `line ${lineNumber} is not valid UTF-8`;
  }
  let value: unknown;
  try {
    value = parseJsonLine(text);
  } catch (error) {
    return clip(`invalid JSON: ${describeError(error)}`);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as JsonObject;
  return `line ${lineNumber} is not a JSON object: found ${describeJson(value)}`;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'number' ? 'a number' : 'a boolean';
}

function clip(reason: string): string {
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS)}…`;
}

/**
 * Opens a JSON Lines file, plain or gzip-compressed: one JSON object per non-blank line. Columns
 * are discovered row by row, so the schema is dynamic; lines that are no object are reported per
 * batch, not thrown.
 */
export function openJsonLinesFile(source: ByteSource, options: JsonLinesOptions = {}): TableFile {
  const batchRows = Math.max(1, options.batchRows ?? DEFAULT_BATCH_ROWS);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_RECORD_BYTES;
  const chunkBytes = Math.max(1, options.chunkBytes ?? DEFAULT_CHUNK_BYTES);
  return {
    schema: async () => ({ kind: 'dynamic' }),
    batches: (columns) => readBatches(new ChunkWindow(textChunks(source, chunkBytes)), maxLineBytes, new JsonLinesBatchBuilder(columns, batchRows, maxLineBytes)),
  };
}

async function* readBatches(window: ChunkWindow, maxLineBytes: number, builder: JsonLinesBatchBuilder): AsyncGenerator<ColumnBatch> {
  const scanner = new LineScanner(window, maxLineBytes);
  try {
    await scanner.begin();
    do {
      scanner.scan(builder);
      yield* builder.takeReady();
    } while (await scanner.refill());
    scanner.finish(builder);
  } finally {
    await window.close();
  }
  builder.flush();
  yield* builder.takeReady();
}
