import type { SchemaElement } from 'hyparquet';
import { GateError } from '../errors.js';
import { reason, type ParquetFileInfo } from './parquet-footer.js';
import { keyHashable } from './parquet-key-hashes.js';
import type { ByteSource } from './byte-source.js';
import { columnPages } from './column-pages.js';
import type { SlicedPage } from './sliced-page.js';
import { isVector, materialize, type ColumnVector, type NumberVector } from './column-vector.js';
import { ByteColumnBuilder } from './byte-column-builder.js';
import { PageBudget } from './page-budget.js';
import { joinPieces } from './number-pieces.js';
import { UnreadableError, type BatchOptions, type ColumnBatch, type RowGroupInfo } from './table-file.js';

/**
 * A row group holding more values than this (rows × columns read) is read in slices of rows with
 * its pages streamed, so memory follows the slice and the page, not the group: writers such as
 * Spark, pyarrow and DuckDB with ROW_GROUP_SIZE make groups of millions of rows. Only small
 * groups are decoded whole by hyparquet: on 2M DuckDB-written rows in groups of 250k, slices
 * took 1.06-1.17 s of CPU and 160-172 MB against 1.42-1.53 s and 244-314 MB whole (hyparquet
 * assembles every optional value into an array of the whole group).
 */
export const WHOLE_GROUP_VALUES = 65_536;
/** Values a slice holds across its columns, whatever the width: a string is ~50 bytes of heap. */
const SLICE_VALUES = 262_144;
const SLICE_ROWS_MIN = 1_024;
/**
 * At most this many rows a slice, so each column's array (8 bytes a value) stays under V8's
 * large-object size (128 KiB): smaller arrays die young, in the next scavenge; larger ones wait
 * for a full collection and pile up until one comes (60 MB of them on the 5M-row bench file).
 */
const SLICE_ROWS_MAX = 8_192;
/** Bytes each column's page window reads ahead, shared across the columns read. */
const WINDOW_BUDGET = 32 * 2 ** 20;
const WINDOW_MIN = 256 * 1024;
const WINDOW_MAX = 8 * 2 ** 20;

/** Columns read other than as values (see BatchOptions). */
export type WantedValues = Pick<BatchOptions, 'hashOnly' | 'presenceOnly' | 'rawText' | 'textBytes' | 'pick' | 'vectors'>;

/** Pages whose compressed bytes exceed this are streamed (see column-pages.ts); unset, those larger than their window. */
export interface SliceReading {
  readonly streamPageBytes?: number;
  /** Bytes of decoded pages the group's columns may hold at once (see page-budget.ts). */
  readonly pageBudgetBytes?: number;
}

/** Batches of a row group's rows, in order, each covering every column asked for. */
export async function* groupSlices(source: ByteSource, info: ParquetFileInfo, group: RowGroupInfo, columns: readonly string[], wanted: WantedValues = {}, reading: SliceReading = {}): AsyncGenerator<ColumnBatch> {
  const sliceRows = Math.min(SLICE_ROWS_MAX, Math.max(SLICE_ROWS_MIN, Math.floor(SLICE_VALUES / Math.max(1, columns.length))));
  const queues = openQueues(source, info, group, columns, wanted, reading);
  for (let done = 0; done < group.rowCount; done += sliceRows) {
    const rowStart = group.rowStart + done;
    const rowCount = Math.min(sliceRows, group.rowCount - done);
    const batch = await decoding(rowStart, rowCount, () => takeRows(group, queues, rowStart, rowCount, wanted));
    // The last slice lets go of the group's pages before the engine moves on (a page can be 90 MB).
    if (done + sliceRows >= group.rowCount) await closeQueues(queues);
    yield batch;
  }
}

/**
 * Single rows of a large row group (0-based within the file, ascending), one batch a row, in one
 * pass over its pages: the rows between are decoded a slice at a time and dropped.
 */
export async function* groupRowsAt(source: ByteSource, info: ParquetFileInfo, group: RowGroupInfo, columns: readonly string[], rows: readonly number[], reading: SliceReading = {}): AsyncGenerator<ColumnBatch> {
  const queues = openQueues(source, info, group, columns, {}, reading);
  try {
    let next = group.rowStart;
    for (const row of rows) {
      const batch = await decoding(row, 1, async () => {
        for (let left = row - next; left > 0; left -= SLICE_ROWS_MIN) await Promise.all([...queues.values()].map((queue) => queue.take(Math.min(left, SLICE_ROWS_MIN))));
        return takeRows(group, queues, row, 1);
      });
      next = row + 1;
      yield batch;
    }
  } finally {
    await closeQueues(queues);
  }
}

function openQueues(source: ByteSource, info: ParquetFileInfo, group: RowGroupInfo, columns: readonly string[], wanted: WantedValues, reading: SliceReading): Map<string, PageQueue> {
  const windowBytes = Math.min(WINDOW_MAX, Math.max(WINDOW_MIN, Math.floor(WINDOW_BUDGET / Math.max(1, columns.length))));
  const fetching = { windowBytes, streamBytes: reading.streamPageBytes ?? windowBytes, budget: new PageBudget(group.index, reading.pageBudgetBytes) };
  const queues = new Map<string, PageQueue>();
  for (const chunk of info.metadata.row_groups[group.index]?.columns ?? []) {
    // A forged footer can make meta_data any falsy value, not only undefined.
    const meta = chunk.meta_data || undefined;
    const name = meta?.path_in_schema.join('.');
    if (!meta || name === undefined || !columns.includes(name) || queues.has(name)) continue;
    const element = info.elements.get(name);
    const hashed = (wanted.hashOnly?.has(name) ?? false) && element !== undefined && keyHashable(element);
    const presence = !hashed && (wanted.presenceOnly?.has(name) ?? false);
    const rawText = wanted.rawText?.has(name) ?? false;
    const numbers = !hashed && !presence && wanted.vectors === true;
    const bytes = !hashed && !presence && !rawText && (wanted.textBytes?.has(name) ?? false) && element !== undefined && isText(element);
    queues.set(name, new PageQueue(name, group.rowCount, hashed, numbers, bytes, columnPages(source, info.metadata, meta, group.rowCount, fetching, { hashed, presence, rawText }, group.index)));
  }
  // Every flat column has a chunk in every group; without one the engine would take its rows for nulls.
  const missing = columns.find((name) => !queues.has(name));
  if (missing !== undefined) throw new UnreadableError(`row group ${group.index} has no column chunk for "${missing}"`);
  return queues;
}

async function takeRows(group: RowGroupInfo, queues: ReadonlyMap<string, PageQueue>, rowStart: number, rowCount: number, { pick, vectors = false }: WantedValues = {}): Promise<ColumnBatch> {
  const wanted = pick && pick.rows(rowStart, rowCount);
  const take = (name: string, queue: PageQueue) => {
    const picked = pick?.columns.has(name) ?? false;
    return vectors && !picked && !queue.hashed ? queue.takeVector(rowCount) : queue.take(rowCount, picked ? wanted : undefined);
  };
  const taken = await Promise.all([...queues].map(async ([name, queue]) => [name, queue, await take(name, queue)] as const));
  const columns = new Map<string, ArrayLike<unknown>>();
  const hashes = new Map<string, Float64Array>();
  const vectorsTaken = new Map<string, ColumnVector>();
  for (const [name, queue, values] of taken) {
    if (isVector(values)) vectorsTaken.set(name, values);
    else if (queue.hashed) hashes.set(name, values as Float64Array);
    else columns.set(name, values);
  }
  return { group, rowStart, rowCount, columns, ...(hashes.size > 0 ? { hashes } : {}), ...(vectorsTaken.size > 0 ? { vectors: vectorsTaken } : {}) };
}


/** A column hyparquet decodes to strings (column-decoder.ts): annotated as text. */
function isText(element: SchemaElement): boolean {
  return element.converted_type === 'UTF8' || element.logical_type?.type === 'STRING';
}

async function closeQueues(queues: ReadonlyMap<string, PageQueue>): Promise<void> {
  for (const queue of queues.values()) await queue.close();
}

/** What the pages say is wrong becomes an UnreadableError naming the rows; storage failures pass. */
async function decoding<T>(rowStart: number, rowCount: number, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof GateError || error instanceof UnreadableError) throw error;
    throw new UnreadableError(`cannot decode rows ${rowStart}-${rowStart + rowCount - 1}: ${reason(error)}`, { cause: error });
  }
}

/** One column's pages, handed out as runs of rows that may cross page boundaries. */
class PageQueue {
  private page: SlicedPage | undefined;
  /** Rows in the pages fetched so far. */
  private fetched = 0;

  constructor(private readonly name: string, private readonly groupRows: number, readonly hashed: boolean, readonly numbers: boolean, private readonly bytes: boolean, private readonly pages: AsyncIterator<SlicedPage>) {}

  /**
   * The next `count` rows as one NumberVector where every page they come from is PLAIN numbers
   * exact as doubles (see sliced-page.ts), else as values, as `take` gives them.
   */
  async takeNumbers(count: number): Promise<NumberVector | ArrayLike<unknown>> {
    const page = this.page && this.page.left > 0 ? this.page : await this.nextPage();
    if (page.left >= count) return page.takeNumbers ? page.takeNumbers(count) : page.take(count);
    const pieces: (NumberVector | ArrayLike<unknown>)[] = [];
    for (let filled = 0; filled < count;) {
      const next = this.page && this.page.left > 0 ? this.page : await this.nextPage();
      const taking = Math.min(count - filled, next.left);
      pieces.push(next.takeNumbers ? await next.takeNumbers(taking) : await next.take(taking));
      filled += taking;
    }
    return joinPieces(pieces, count);
  }

  /** With `bytes`, a run that starts on a page of PLAIN byte arrays comes as a ByteVector. */
  async take(count: number, wanted?: Uint8Array): Promise<ArrayLike<unknown> | ColumnVector> {
    if (this.bytes && !wanted && count > 0 && (await this.current()).takeBytes) return this.takeBytes(count);
    if (this.page && this.page.left >= count) return this.page.take(count, wanted);
    const out: { [i: number]: unknown; length: number } = this.hashed ? new Float64Array(count) : new Array<unknown>(count);
    for (let filled = 0; filled < count;) {
      const page = this.page && this.page.left > 0 ? this.page : await this.nextPage();
      const taking = Math.min(count - filled, page.left);
      const run = await page.take(taking, wanted?.subarray(filled, filled + taking));
      for (let i = 0; i < run.length; i++) out[filled + i] = run[i];
      filled += run.length;
    }
    return out;
  }

  /**
   * The next `count` rows as dictionary indices when every page they lie in is dictionary-encoded
   * (one dictionary); as values when one is not: a writer falls back to PLAIN pages mid-chunk
   * once its dictionary grows too large, and the rows already taken are then looked up.
   */
  async takeVector(count: number): Promise<ArrayLike<unknown> | ColumnVector> {
    const first = this.page && this.page.left > 0 ? this.page : await this.nextPage();
    const entries = first.entries;
    if (!entries || !first.takeIndices) return this.numbers ? this.takeNumbers(count) : this.take(count);
    const indices = new Int32Array(count);
    for (let filled = 0; filled < count;) {
      const page = this.page && this.page.left > 0 ? this.page : await this.nextPage();
      if (page.entries !== entries || !page.takeIndices) return this.lookedUp(entries, indices, filled, count);
      const taking = Math.min(count - filled, page.left);
      await page.takeIndices(indices, filled, taking);
      filled += taking;
    }
    return { kind: 'dictionary', entries, indices };
  }

  /** Rows [0, filled) taken as indices, looked up, and the rest taken as values. */
  private async lookedUp(entries: ArrayLike<unknown>, indices: Int32Array, filled: number, count: number): Promise<unknown[]> {
    const out = new Array<unknown>(count);
    for (let i = 0; i < filled; i++) out[i] = indices[i]! < 0 ? null : entries[indices[i]!];
    const taken = await this.take(count - filled);
    const rest = isVector(taken) ? materialize(taken) : taken;
    for (let i = 0; i < rest.length; i++) out[filled + i] = rest[i];
    return out;
  }

  private async takeBytes(count: number): Promise<ColumnVector> {
    const builder = new ByteColumnBuilder(count);
    for (let filled = 0; filled < count;) {
      const page = await this.current();
      const taking = Math.min(count - filled, page.left);
      if (page.takeBytes) await page.takeBytes(taking, builder);
      else builder.appendValues(await page.take(taking));
      filled += taking;
    }
    return builder.finish();
  }

  private async current(): Promise<SlicedPage> {
    return this.page && this.page.left > 0 ? this.page : this.nextPage();
  }

  async close(): Promise<void> {
    this.page = undefined;
    await this.pages.return?.(undefined);
  }

  private async nextPage(): Promise<SlicedPage> {
    const next = await this.pages.next();
    if (next.done) {
      throw new UnreadableError(`column "${this.name}" has ${this.fetched} values in a row group of ${this.groupRows} rows`);
    }
    this.page = next.value;
    this.fetched += next.value.left;
    return next.value;
  }
}
