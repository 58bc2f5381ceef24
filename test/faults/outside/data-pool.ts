import { makeOrders, orderId, ordersToParquet, type OrdersColumns, type Plant } from '../../fixtures/orders-fixture.js';
import { md5 } from './lake-client.js';

/** What a version of a file holds: good rows, or rows with one planted violation. */
export type VersionKind = 'good' | 'bad-enum' | 'bad-grain';

/** One file version a producer may write: a name, its bytes, and whether the contract accepts it. */
export interface FileVersion {
  readonly name: string;
  /** e.g. `part-2@g1` or `part-2@bad-enum`: how reports name it. */
  readonly label: string;
  readonly kind: VersionKind;
  readonly bytes: Uint8Array;
  readonly md5: string;
  readonly size: number;
}

export const FILE_NAMES = ['part-0.parquet', 'part-1.parquet', 'part-2.parquet', 'part-3.parquet', 'part-4.parquet', 'part-5.parquet'] as const;
/** Good generations per name: a trial writes a name at most this often with good bytes. */
export const GOOD_GENERATIONS = 4;
const ID_BLOCK = 100_000;

/**
 * Parquet files of contracts/orders.v1.yaml, made once per run (0.6–2.6 MB each, 10k-row groups).
 * Every version of every name has order ids of its own, so any set of distinct names is unique on
 * the grain: a partition made of good versions passes, whatever mix of generations it holds, and
 * one with a bad version fails. Timestamps end an hour before the run started (`not_in_future`
 * holds, and the 26-hour freshness SLA for a day).
 */
export interface DataPool {
  readonly byName: ReadonlyMap<string, { readonly good: readonly FileVersion[]; readonly bad: readonly FileVersion[] }>;
  /** Every version by its MD5: what the checker compares published bytes with. */
  readonly byMd5: ReadonlyMap<string, FileVersion>;
}

export function makeDataPool(now = Date.now()): DataPool {
  const byName = new Map<string, { good: FileVersion[]; bad: FileVersion[] }>();
  const byMd5 = new Map<string, FileVersion>();
  FILE_NAMES.forEach((name, index) => {
    const entry = { good: [] as FileVersion[], bad: [] as FileVersion[] };
    const kinds: VersionKind[] = [...Array<VersionKind>(GOOD_GENERATIONS).fill('good'), 'bad-enum', 'bad-grain'];
    kinds.forEach((kind, generation) => {
      const rows = 20_000 + ((index * 7 + generation * 13) % 8) * 10_000;
      const firstRow = (index * 8 + generation) * ID_BLOCK;
      const bytes = ordersToParquet(shiftTimes(makeOrders({ rows, firstRow, plant: plants(kind, firstRow) }), now), { rowGroupSize: 10_000 });
      const version: FileVersion = { name, label: `${name.replace('.parquet', '')}@${kind === 'good' ? `g${generation}` : kind}`, kind, bytes, md5: md5(bytes), size: bytes.length };
      (kind === 'good' ? entry.good : entry.bad).push(version);
      byMd5.set(version.md5, version);
    });
    byName.set(name, entry);
  });
  return { byName, byMd5 };
}

function plants(kind: VersionKind, firstRow: number): Plant[] {
  if (kind === 'bad-enum') return [{ row: 17, column: 'status', value: 'pending' }];
  // Row 23 repeats row 5's key: one duplicated grain value inside the file.
  if (kind === 'bad-grain') return [{ row: 23, column: 'order_id', value: orderId(firstRow + 5) }];
  return [];
}

/** makeOrders puts the rows in 2026-11-29; move them so the newest updated_at is an hour ago. */
function shiftTimes(columns: OrdersColumns, now: number): OrdersColumns {
  const newest = columns.updated_at.reduce((max, d) => Math.max(max, d?.getTime() ?? 0), 0);
  const offset = now - 3_600_000 - newest;
  const shift = (values: (Date | null)[]) => values.map((d) => (d ? new Date(d.getTime() + offset) : d));
  return { ...columns, ordered_at: shift(columns.ordered_at), updated_at: shift(columns.updated_at) };
}
