/**
 * A file's key hashes, split into shards for the reduce: for each shard, the (hash, row) pairs
 * of the rows whose hash falls in it, as little-endian float64 pairs. A hash is a 53-bit integer,
 * so its top bits pick the shard and equal keys always meet in the same one.
 */
const HASH_BITS = 53;

export function shardOf(hash: number, shardBits: number): number {
  return Math.floor(hash / 2 ** (HASH_BITS - shardBits));
}

/** One part per shard that has rows; rows without a complete key (NaN) are in none. */
export function splitByShard(hashes: Float64Array, shardBits: number): Map<number, Uint8Array> {
  const rowsByShard = new Map<number, number[]>();
  for (let row = 0; row < hashes.length; row++) {
    const hash = hashes[row]!;
    if (hash !== hash) continue;
    const shard = shardOf(hash, shardBits);
    const rows = rowsByShard.get(shard) ?? [];
    rowsByShard.set(shard, rows);
    rows.push(row);
  }
  const parts = new Map<number, Uint8Array>();
  for (const [shard, rows] of [...rowsByShard].sort((a, b) => a[0] - b[0])) parts.set(shard, encodePairs(hashes, rows));
  return parts;
}

function encodePairs(hashes: Float64Array, rows: readonly number[]): Uint8Array {
  const bytes = new Uint8Array(rows.length * 16);
  const view = new DataView(bytes.buffer);
  rows.forEach((row, i) => {
    view.setFloat64(i * 16, hashes[row]!, true);
    view.setFloat64(i * 16 + 8, row, true);
  });
  return bytes;
}

export function decodePairs(bytes: Uint8Array): { hashes: Float64Array; rows: Float64Array } {
  const count = Math.floor(bytes.byteLength / 16);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const hashes = new Float64Array(count);
  const rows = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    hashes[i] = view.getFloat64(i * 16, true);
    rows[i] = view.getFloat64(i * 16 + 8, true);
  }
  return { hashes, rows };
}
