import { isTemporalType } from '../contract/column-type.js';
import { CSV_DIALECT_KEYS, DEFAULT_CSV_DIALECT, dialectDifferences } from '../contract/csv-dialect.js';
import type { SniffedDialect } from './sniff-dialect.js';
import type { DataFormat } from '../contract/model.js';
import { inferColumn, count } from './infer-column.js';
import { choiceLines } from './choice.js';
import { inferFreshness, type TimeColumn } from './infer-freshness.js';
import { chooseGrain, type KeySearch } from './infer-grain.js';
import { KEY_HASH_BUDGET } from './key-tracker.js';
import { decideType } from './infer-type.js';
import { inferVolume } from './infer-volume.js';
import { partitionSegments, type PartitionGuess } from './partition-naming.js';
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
  /** The samples' CSV dialect, as sniffed: proposed where it differs from the defaults. */
  readonly csv?: SniffedDialect;
}

/** The key search after the first read: single columns and declared keys. */
export function firstSearch(stats: SampleStats): KeySearch {
  return { results: stats.keys.results(), declared: stats.declared, rounds: [], budget: KEY_HASH_BUDGET };
}

/**
 * The pure core: from what the samples showed to a proposed contract. `search` holds the
 * candidate keys and where each failed (single columns and declared keys from the first read,
 * composites from later ones).
 */
export function proposeContract(stats: SampleStats, options: InferOptions, search = firstSearch(stats)): ProposedContract {
  const singles = new Set(search.results.filter((k) => k.columns.length === 1 && !k.failure).map((k) => k.columns[0]!));
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
  const labels = stats.partitions.map((p) => partitionLabel(p.label));
  const { grain, choice: grainChoice } = chooseGrain(search, columns, labels);
  const { freshness, choice: freshnessChoice } = inferFreshness(times, stats.partitions, labels);
  const rows = stats.partitions.map((p) => p.rows);
  const total = rows.reduce((a, b) => a + b, 0);
  return {
    name: options.name,
    major: options.major,
    format: options.format,
    ...(options.csv ? proposedDialect(options.csv) : {}),
    partition: options.partition.template,
    partitionNote: options.partition.note,
    summary: `${count(stats.partitions.length, 'partition')}, ${count(stats.files, 'file')}, ${count(total, 'row')}`,
    columns: markNotInFuture(columns, times, freshness?.column),
    leftOut,
    grain,
    grainChoice,
    grainNotes: choiceLines(grainChoice),
    freshnessChoice,
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

/** A partition as the user knows it: its `key=value` folders (`dt=2026-03-01`), else its path. */
function partitionLabel(dir: string): string {
  return partitionSegments(dir).join('/') || dir;
}

/** The sniffed dialect's keys that differ from the defaults, as the contract writes them, with why. */
function proposedDialect(sniffed: SniffedDialect): Pick<ProposedContract, 'csv'> {
  const keys = dialectDifferences(DEFAULT_CSV_DIALECT, sniffed.dialect);
  if (keys.length === 0) return {};
  const values = Object.fromEntries(keys.map((key) => [key, sniffed.dialect[CSV_DIALECT_KEYS[key]]]));
  return { csv: { values, notes: sniffed.notes } };
}
