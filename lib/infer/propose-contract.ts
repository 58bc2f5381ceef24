import { isTemporalType } from '../contract/column-type.js';
import type { DataFormat } from '../contract/model.js';
import { inferColumn, count } from './infer-column.js';
import { inferFreshness, type TimeColumn } from './infer-freshness.js';
import { chooseGrain } from './infer-grain.js';
import { decideType } from './infer-type.js';
import { inferVolume } from './infer-volume.js';
import type { PartitionGuess } from './partition-naming.js';
import type { ProposedColumn, ProposedContract } from './proposal.js';
import type { SampleStats } from './sample-stats.js';
import { exactNumber } from './value-range.js';

/** Non-null values per distinct value an enum needs (see infer-column.ts). */
export const ENUM_RATIO = 10;
export const DEFAULT_ENUM_MAX = 20;

export interface InferOptions {
  readonly name: string;
  readonly major: number;
  readonly format: DataFormat;
  readonly partition: PartitionGuess;
  readonly enumMax: number;
}

/**
 * The pure core: from what the samples showed to a proposed contract. `keys` are the column
 * sets found unique and non-null in every partition (single columns, or pairs from a second pass).
 */
export function proposeContract(stats: SampleStats, options: InferOptions, keys = stats.keys.unique()): ProposedContract {
  const singles = new Set(keys.filter((k) => k.length === 1).map((k) => k[0]!));
  const columns: ProposedColumn[] = [];
  const leftOut: { name: string; reason: string }[] = [];
  const times: TimeColumn[] = [];
  for (const column of stats.columns.values()) {
    const missing = stats.source !== 'dynamic' && column.files < stats.files;
    const decision = missing ? { leftOut: `missing from ${stats.files - column.files} of ${count(stats.files, 'file')}` } : decideType(column);
    if ('leftOut' in decision) {
      leftOut.push({ name: column.name, reason: decision.leftOut });
      continue;
    }
    const context = { enumMax: options.enumMax, enumRatio: ENUM_RATIO, unique: singles.has(column.name) };
    const proposed = inferColumn(column, decision.type, decision.partitions, context);
    columns.push(decision.note ? { ...proposed, notes: [`type: ${decision.note}`, ...proposed.notes] } : proposed);
    if (isTemporalType(decision.type)) times.push({ column: proposed, newest: decision.partitions.map((p) => exactNumber(p.range.max)) });
  }
  const { grain, notes: grainNotes } = chooseGrain(keys, columns, stats.partitions.length);
  const freshness = inferFreshness(times, stats.partitions);
  const rows = stats.partitions.map((p) => p.rows);
  const total = rows.reduce((a, b) => a + b, 0);
  return {
    name: options.name,
    major: options.major,
    format: options.format,
    partition: options.partition.template,
    partitionNote: options.partition.note,
    summary: `${count(stats.partitions.length, 'partition')}, ${count(stats.files, 'file')}, ${count(total, 'row')}`,
    columns: markNotInFuture(columns, times, freshness?.column),
    leftOut,
    grain,
    grainNotes,
    ...(freshness ? { freshness } : {}),
    volume: inferVolume(rows),
  };
}

/**
 * `not_in_future` for a time column never later than the freshness column's newest value in
 * its partition: such a column records the past, and a check at or after the newest update
 * holds. A column that runs ahead of it (a due date) may well be in the future.
 */
function markNotInFuture(columns: ProposedColumn[], times: readonly TimeColumn[], freshness: string | undefined): ProposedColumn[] {
  const reference = times.find((t) => t.column.name === freshness);
  if (!reference) return columns;
  // Wall-clock time (timestamp_ntz) is compared as if UTC: east of Greenwich it runs ahead of now.
  const instants = times.filter((t) => t.column.type.kind !== 'timestamp_ntz');
  const past = new Set(instants.filter((t) => t.newest.every((v, i) => v !== undefined && v <= reference.newest[i]!)).map((t) => t.column.name));
  return columns.map((c) => (past.has(c.name)
    ? { ...c, notInFuture: true, notes: [...c.notes, c.name === freshness ? 'not_in_future: it is the freshness column' : `not_in_future: never later than ${freshness} in any partition`] }
    : c));
}
