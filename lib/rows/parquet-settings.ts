import type { ColumnChunk, CompressionCodec, RowGroup, Statistics } from 'hyparquet';
import { writableCodec } from './parquet-codecs.js';
import type { ColumnPlan, ParquetPlan } from './parquet-plan.js';

/** How one top-level column of one row group is written. */
export interface ChunkSettings {
  readonly codec: CompressionCodec;
  readonly statistics: boolean;
}

/**
 * Per row group and column: the source's codec (or SNAPPY where it cannot be written, noted) and
 * statistics where the source wrote them (unless a leaf's cannot be computed, noted). Settings
 * apply to a whole top-level column, so a nested column whose leaves differ takes its first
 * leaf's codec, also noted.
 */
export function chunkSettings(plan: ParquetPlan): { settings: ChunkSettings[][]; notes: string[] } {
  const notes = new Notes();
  const settings = plan.metadata.row_groups.map((group) => plan.columns.map((column) => columnSettings(group, column, notes)));
  return { settings, notes: notes.lines(plan.columns.length) };
}

function columnSettings(group: RowGroup, column: ColumnPlan, notes: Notes): ChunkSettings {
  const chunks = group.columns.filter((chunk) => chunk.meta_data?.path_in_schema[0] === column.name);
  const codecs = [...new Set(chunks.map((chunk) => chunk.meta_data!.codec))];
  const source = codecs[0] ?? 'SNAPPY';
  if (codecs.length > 1) notes.add(`its leaves use ${codecs.join(', ')}; all are written with ${source}`, column.name);
  const { codec, fallback } = writableCodec(source);
  if (fallback) notes.add(`written with SNAPPY, not ${source}: ${fallback}`, column.name);
  const had = chunks.length > 0 && chunks.every(hasStatistics);
  const blocked = column.leaves.find((leaf) => leaf.noStatistics !== undefined);
  if (had && blocked) notes.add(`no statistics written: ${blocked.noStatistics}`, blocked.path.join('.'));
  return { codec, statistics: had && !blocked };
}

/** Notes by what they say, each naming its columns once (or "every column"). */
class Notes {
  private readonly columns = new Map<string, Set<string>>();

  add(note: string, column: string): void {
    const named = this.columns.get(note) ?? new Set<string>();
    named.add(column);
    this.columns.set(note, named);
  }

  lines(columnCount: number): string[] {
    return [...this.columns].map(([note, named]) => {
      const which = named.size === columnCount && columnCount > 1 ? 'every column' : named.size === 1 ? `column "${[...named][0]}"` : `columns ${[...named].map((n) => `"${n}"`).join(', ')}`;
      return `${which}: ${note}`;
    });
  }
}

function hasStatistics(chunk: ColumnChunk): boolean {
  const stats: Statistics | undefined = chunk.meta_data?.statistics;
  if (!stats) return false;
  return [stats.min_value, stats.max_value, stats.min, stats.max, stats.null_count, stats.distinct_count].some((v) => v !== undefined && v !== null);
}
