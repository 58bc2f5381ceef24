import { createHash } from 'node:crypto';
import { manifestText } from '../../lib/gate/manifest.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { EXAMPLE_DAY } from '../fixtures/example-partitions.js';
import { makeOrders, orderId, ordersToParquet, type Plant } from '../fixtures/orders-fixture.js';

/**
 * good publishes; bad breaks a value rule (read once); duplicate only repeats a business key,
 * which the engine confirms by reading the colliding rows a second time.
 */
export type DropKind = 'good' | 'bad' | 'duplicate';

export const FILES_PER_DROP = 5;
const ROWS_PER_FILE = 240;

/** What breaks a drop, and in which file: past the first, so the verdict needs files read in turn. */
const PLANTS: Record<DropKind, { file: number; plant: Plant } | undefined> = {
  good: undefined,
  bad: { file: 2, plant: { row: 17, column: 'status', value: 'pending' } },
  // Row 5 of the first file has this id; the contract's grain says it is unique.
  duplicate: { file: 3, plant: { row: 10, column: 'order_id', value: orderId(5) } },
};

export interface StagedFile {
  readonly key: string;
  readonly relative: string;
  readonly bytes: Uint8Array;
  readonly md5: string;
}

export interface StagedDrop {
  readonly kind: DropKind;
  /** orders v<major>: 1, or either side of a linked pair. */
  readonly major: number;
  readonly partition: string;
  readonly prefix: string;
  readonly marker: string;
  /** The marker's bytes (empty, or the producer's manifest) and what S3 said about it. */
  readonly markerBody: string;
  readonly markerEtag: string;
  readonly files: readonly StagedFile[];
}

const cache = new Map<DropKind, { name: string; bytes: Uint8Array }[]>();

/** The five files of a drop (1,200 rows of orders, within the contract's volume band); made once. */
export function fiveFiles(kind: DropKind): { name: string; bytes: Uint8Array }[] {
  const cached = cache.get(kind);
  if (cached) return cached;
  const files = Array.from({ length: FILES_PER_DROP }, (_, i) => {
    const planted = PLANTS[kind];
    const plant = planted?.file === i ? [planted.plant] : [];
    const columns = makeOrders({ rows: ROWS_PER_FILE, firstRow: i * ROWS_PER_FILE, day: EXAMPLE_DAY, plant });
    // A sub-folder for one file: the gate keeps relative paths, and so must every copy.
    return { name: i === 4 ? `late/part-000${i}.parquet` : `part-000${i}.parquet`, bytes: ordersToParquet(columns) };
  });
  cache.set(kind, files);
  return files;
}

/** One side of a linked pair: its major, and the sibling's its manifest names (in the same partition). */
export interface PairSide {
  readonly major: number;
  readonly sibling: number;
}

/** Stages a drop as a producer does: data files first, the marker last (empty or a manifest; a linked side's always names its sibling). */
export async function stageDrop(store: ObjectStore, kind: DropKind, partition: string, withManifest: boolean, side?: PairSide): Promise<StagedDrop> {
  const drop = plannedDrop(kind, partition, withManifest, side);
  for (const file of drop.files) await store.put(file.key, file.bytes);
  // An empty marker as bytes: an empty string makes the SDK warn about a body of unknown length.
  const { etag } = await store.put(drop.marker, drop.markerBody === '' ? new Uint8Array(0) : drop.markerBody);
  return { ...drop, markerEtag: etag };
}

/** The drop stageDrop stages, before it does (its marker's ETag is not known yet). */
export function plannedDrop(kind: DropKind, partition: string, withManifest: boolean, side?: PairSide): StagedDrop {
  const major = side?.major ?? 1;
  const prefix = `staging/orders/v${major}/${partition}/`;
  const files = fiveFiles(kind).map((f) => ({ key: `${prefix}${f.name}`, relative: f.name, bytes: f.bytes, md5: md5(f.bytes) }));
  const listed = files.map((f) => ({ relative: f.relative, size: f.bytes.length }));
  const manifest = side ? manifestText(listed, undefined, { major: side.sibling, partition }) : withManifest ? manifestText(listed) : '';
  return { kind, major, partition, prefix, marker: `${prefix}_READY`, markerBody: manifest, markerEtag: '', files };
}

/** S3's ETag for a single-part object, quoted as it comes back. */
export function md5(bytes: Uint8Array): string {
  return `"${createHash('md5').update(bytes).digest('hex')}"`;
}
