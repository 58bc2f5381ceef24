import { readFile, writeFile } from 'node:fs/promises';
import { Compression, EnabledStatistics, readParquet, writeParquet, WriterPropertiesBuilder, WriterVersion } from 'parquet-wasm/node';
import type { LogicalTable, WriterVariant } from './logical-table.js';
import { stagingFile } from './staging-file.js';
import { writeAtomically } from './write-file.js';

type Configure = (builder: WriterPropertiesBuilder) => WriterPropertiesBuilder;

/**
 * Writes `table` with arrow-rs (the Rust `parquet` crate, compiled to WebAssembly as
 * parquet-wasm). The data reaches arrow-rs as Arrow arrays decoded from a staging file; the
 * output is arrow-rs's own ArrowWriter with the given writer properties.
 */
export async function writeWithArrowRs(table: LogicalTable, path: string, configure: Configure): Promise<void> {
  const staging = await stagingFile(table);
  await writeAtomically(path, async (temp) => {
    const arrow = readParquet(await readFile(staging));
    await writeFile(temp, writeParquet(arrow, configure(new WriterPropertiesBuilder()).build()));
  });
}

function arrowRsVariant(id: string, settings: string, configure: Configure): WriterVariant {
  return { id: `arrow-rs-${id}`, writer: 'arrow-rs', settings, write: (table, path) => writeWithArrowRs(table, path, configure) };
}

const codec = (name: string, compression: Compression) =>
  arrowRsVariant(name.toLowerCase(), `compression ${name}`, (b) => b.setCompression(compression));

/** arrow-rs (parquet-wasm 0.8.0) and its knobs; its defaults are uncompressed v1 pages with page statistics. */
export const ARROW_RS_VARIANTS: readonly WriterVariant[] = [
  arrowRsVariant('default', 'defaults (uncompressed, v1 pages, dictionary, page statistics, 1M-row groups)', (b) => b),
  codec('SNAPPY', Compression.SNAPPY),
  codec('ZSTD', Compression.ZSTD),
  codec('GZIP', Compression.GZIP),
  codec('BROTLI', Compression.BROTLI),
  codec('LZ4_RAW', Compression.LZ4_RAW),
  // Compression.LZ4 (the deprecated Hadoop framing) is left out: DuckDB, the oracle, refuses to read it.
  arrowRsVariant('nodict', 'dictionary off', (b) => b.setDictionaryEnabled(false)),
  // A dictionary page capped at 1 KiB overflows part way through a chunk: later pages fall back to PLAIN.
  arrowRsVariant('dict-fallback', 'dictionary pages capped at 1 KiB (fallback to PLAIN within a chunk)', (b) => b.setDictionaryPageSizeLimit(1024)),
  arrowRsVariant('nostats', 'statistics off', (b) => b.setStatisticsEnabled(EnabledStatistics.None)),
  arrowRsVariant('v2', 'writer version 2 (v2 data pages)', (b) => b.setWriterVersion(WriterVersion.V2)),
  arrowRsVariant('small-pages', 'row groups of 1000 rows, data pages of 1 KiB, write batches of 256', (b) => b.setMaxRowGroupSize(1000).setDataPageSizeLimit(1024).setWriteBatchSize(256)),
  arrowRsVariant('v2-nodict-snappy', 'writer version 2, dictionary off, snappy', (b) => b.setWriterVersion(WriterVersion.V2).setDictionaryEnabled(false).setCompression(Compression.SNAPPY)),
];
