import { comparePartitions, placePartition } from '../lake/published-partitions.js';
import type { DuePartition } from '../sla/sla-calendar.js';
import { MAX_PARTITIONS } from './lake-status.js';

/** What the listings said of one partition: enough to choose its state and which body to read. */
export interface PartitionSummary {
  readonly partition: string;
  readonly time?: number;
  /** Its `_SUCCESS` key. */
  success?: string;
  /** Attempt folders holding a report, in no order. */
  attempts?: string[];
  /** Attempt folders that also hold the report page. */
  pages?: string[];
  staged?: { files: number; marker: boolean; newest: number };
  /** When the probe claimed `sla_missed` (epoch ms of the claim). */
  missedAt?: number;
  due?: DuePartition;
}

/**
 * The partitions of one dataset major that can still be among its last MAX_PARTITIONS. The
 * order depends on the path alone (comparePartitions), so a partition that fell out of the
 * newest MAX_PARTITIONS can never come back, whatever is listed later: the table trims itself
 * as it grows, and a lake with years of partitions costs MAX_PARTITIONS summaries, not years.
 */
export interface PartitionTable {
  readonly dataset: string;
  readonly major: number;
  /** The newest contract's template, when there is a contract: it places partitions in time. */
  readonly template?: string;
  /** The summary to fill in, made if new. */
  at(partition: string): PartitionSummary;
  /** The summary if it is still kept. */
  peek(partition: string): PartitionSummary | undefined;
  /** The kept partitions, oldest first. */
  kept(): PartitionSummary[];
}

export function partitionTable(dataset: string, major: number, template?: string): PartitionTable {
  const rows = new Map<string, PartitionSummary>();
  const place = (partition: string) => (template === undefined ? { partition } : placePartition(template, partition));
  const lastKept = () => [...rows.values()].sort(comparePartitions).slice(-MAX_PARTITIONS);
  const trim = () => {
    const kept = new Set(lastKept().map((row) => row.partition));
    for (const partition of rows.keys()) if (!kept.has(partition)) rows.delete(partition);
  };
  return {
    dataset,
    major,
    ...(template === undefined ? {} : { template }),
    at(partition) {
      const found = rows.get(partition);
      if (found) return found;
      const made: PartitionSummary = place(partition);
      rows.set(partition, made);
      if (rows.size > 2 * MAX_PARTITIONS) trim();
      return made;
    },
    peek: (partition) => rows.get(partition),
    kept: lastKept,
  };
}

/** One PartitionTable per dataset major, made on first sight; each contract's made up front. */
export interface LakeTables {
  table(dataset: string, major: number): PartitionTable;
  find(dataset: string, major: number): PartitionTable | undefined;
  /** Sorted by dataset name, then major. */
  all(): PartitionTable[];
}

export function lakeTables(known: readonly { readonly dataset: string; readonly major: number; readonly template: string }[]): LakeTables {
  const tables = new Map<string, PartitionTable>();
  const keyOf = (dataset: string, major: number) => `${dataset}/v${major}`;
  const table = (dataset: string, major: number) => {
    const key = keyOf(dataset, major);
    const found = tables.get(key);
    if (found) return found;
    const made = partitionTable(dataset, major, known.find((k) => k.dataset === dataset && k.major === major)?.template);
    tables.set(key, made);
    return made;
  };
  for (const { dataset, major } of known) table(dataset, major);
  return {
    table,
    find: (dataset, major) => tables.get(keyOf(dataset, major)),
    all: () => [...tables.values()].sort((a, b) => (a.dataset < b.dataset ? -1 : a.dataset > b.dataset ? 1 : a.major - b.major)),
  };
}
