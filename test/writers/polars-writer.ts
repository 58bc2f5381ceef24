import pl from 'nodejs-polars';
import type { LogicalTable, WriterVariant } from './logical-table.js';
import { stagingFile } from './staging-file.js';
import { writeAtomically } from './write-file.js';

/** What nodejs-polars' streaming sink accepts; `undefined` means the eager `writeParquet` defaults. */
export interface PolarsSettings {
  readonly compression?: 'uncompressed' | 'snappy' | 'gzip' | 'lz4' | 'zstd' | 'brotli';
  readonly statistics?: boolean;
  readonly rowGroupSize?: number;
  readonly dataPagesizeLimit?: number;
}

/**
 * Writes `table` with polars (nodejs-polars 0.24.1; its Parquet writer is polars' own Rust
 * crate). The staging file is read into a DataFrame and written back by polars: every contract
 * type, decimal included, survives this road, so no column is skipped.
 */
export async function writeWithPolars(table: LogicalTable, path: string, settings: PolarsSettings | undefined): Promise<void> {
  const staging = await stagingFile(table);
  await writeAtomically(path, async (temp) => {
    if (!settings) return pl.readParquet(staging).writeParquet(temp);
    // The sink is the only nodejs-polars entry point with statistics and row-group settings.
    await pl.scanParquet(staging).sinkParquet(temp, { ...settings, maintainOrder: true }).collect();
  });
}

function polarsVariant(id: string, settings: string, options: PolarsSettings | undefined): WriterVariant {
  return { id: `polars-${id}`, writer: 'polars', settings, write: (table, path) => writeWithPolars(table, path, options) };
}

export const POLARS_VARIANTS: readonly WriterVariant[] = [
  polarsVariant('default', 'DataFrame.writeParquet defaults (uncompressed, no statistics, one row group)', undefined),
  polarsVariant('zstd-stats', 'sinkParquet, zstd, statistics on', { compression: 'zstd', statistics: true }),
  polarsVariant('snappy-nostats', 'sinkParquet, snappy, statistics off', { compression: 'snappy', statistics: false }),
  polarsVariant('small-groups', 'sinkParquet, lz4, statistics on, 1000-row groups, 4 KiB pages', { compression: 'lz4', statistics: true, rowGroupSize: 1000, dataPagesizeLimit: 4096 }),
];
