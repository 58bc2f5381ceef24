import { describe, expect, it } from 'vitest';
import { PARQUET_WRITERS, writeCached, writerVariant } from '../writers/index.js';
import { fileLayout, type FileLayout } from './file-layout.js';
import { MATRIX_TABLES } from './matrix-tables.js';

const orders = MATRIX_TABLES.find((t) => t.label === 'orders')!;
const layoutOf = async (id: string): Promise<FileLayout> => fileLayout(await writeCached(writerVariant(id), orders.table(), orders.label));

// What a knob must do to the bytes, or the variant named for it tests nothing new.
const KNOB_EFFECTS: readonly [id: string, effect: string, holds: (layout: FileLayout) => boolean][] = [
  ['duckdb-small-groups', 'many row groups', (l) => l.rowGroups > 10],
  ['duckdb-one-group', 'one row group', (l) => l.rowGroups === 1],
  ['duckdb-v2', 'delta encodings', (l) => l.encodings.has('DELTA_BINARY_PACKED') && l.encodings.has('DELTA_LENGTH_BYTE_ARRAY')],
  ['duckdb-v2-nodict', 'byte-stream-split and no dictionary', (l) => l.encodings.has('BYTE_STREAM_SPLIT') && !l.pageTypes.has('DICTIONARY_PAGE')],
  ['duckdb-nodict', 'no dictionary page', (l) => !l.pageTypes.has('DICTIONARY_PAGE')],
  ['arrow-rs-v2', 'v2 data pages', (l) => l.pageTypes.has('DATA_PAGE_V2') && !l.pageTypes.has('DATA_PAGE')],
  ['arrow-rs-nodict', 'no dictionary page', (l) => !l.pageTypes.has('DICTIONARY_PAGE')],
  ['arrow-rs-dict-fallback', 'dictionary and PLAIN data pages in one chunk', (l) => l.dictionaryFallback],
  ['arrow-rs-small-pages', 'many row groups', (l) => l.rowGroups > 10],
  ['polars-small-groups', 'many row groups of several pages', (l) => l.rowGroups > 10 && l.maxDataPages > 1],
  ['hyparquet-plain', 'PLAIN only, in many pages', (l) => !l.pageTypes.has('DICTIONARY_PAGE') && l.maxDataPages > 10],
  ['hyparquet-dictionary', 'dictionary-encoded data pages only', (l) => [...l.encodings].every((e) => e === 'RLE_DICTIONARY' || e === 'RLE')],
];

describe('the writer variants of the orders table', () => {
  it.each(KNOB_EFFECTS)('%s writes %s', async (id, _effect, holds) => {
    expect(holds(await layoutOf(id))).toBe(true);
  });

  // DuckDB writes one data page per column chunk below ~100 MB of values, so its multi-page
  // coverage is its many small row groups; the other writers must also split chunks into pages.
  it.each(['arrow-rs', 'polars', 'hyparquet-writer'])('%s writes some chunk in several data pages', async (writer) => {
    const layouts = await Promise.all(PARQUET_WRITERS.filter((v) => v.writer === writer).map((v) => layoutOf(v.id)));
    expect(Math.max(...layouts.map((l) => l.maxDataPages))).toBeGreaterThan(1);
  });
});
