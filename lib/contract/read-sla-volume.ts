import type { Node } from 'yaml';
import type { VolumeVsHistory } from './model.js';
import type { YamlReader } from './yaml-reader.js';

/** The keys as a format spells them: the native `sla.volume_vs_history`, or ODCS's `contractGate.sla.volumeVsHistory`. */
export interface VolumeSpelling {
  readonly path: string;
  readonly lookback: string;
  readonly minRatio: string;
  readonly maxRatio: string;
}

export const NATIVE_VOLUME: VolumeSpelling = { path: 'sla.volume_vs_history', lookback: 'lookback', minRatio: 'min_ratio', maxRatio: 'max_ratio' };
export const VOLUME_KEYS = [NATIVE_VOLUME.lookback, NATIVE_VOLUME.minRatio, NATIVE_VOLUME.maxRatio] as const;

/** The median needs a few partitions to mean anything; a year of dailies is plenty. */
export const MIN_LOOKBACK = 3;
export const MAX_LOOKBACK = 366;
export const DEFAULT_LOOKBACK = 7;

/** `volume_vs_history: { lookback, min_ratio, max_ratio }`: the row count against the median of past partitions. */
export function readVolumeVsHistory(reader: YamlReader, node: Node | null, spelling: VolumeSpelling = NATIVE_VOLUME): VolumeVsHistory | undefined {
  const { path, lookback: lookbackKey, minRatio: minKey, maxRatio: maxKey } = spelling;
  const entries = reader.map(node, path, [lookbackKey, minKey, maxKey]);
  if (!entries) return undefined;
  const read = (key: string, fn: (n: Node | null, at: string) => number | undefined): number | undefined => {
    const value = reader.field(entries, node, path, key);
    return value === undefined ? undefined : fn(value, `${path}.${key}`);
  };
  const lookback = read(lookbackKey, (n, at) => readLookback(reader, n, at));
  const minRatio = read(minKey, (n, at) => reader.number(n, at, { min: 0 }));
  const maxRatio = read(maxKey, (n, at) => readPositive(reader, n, at, maxKey));
  if (!entries.has(minKey) && !entries.has(maxKey)) {
    reader.report('missing_key', `${path}.${minKey}`, node, `${path.split('.').at(-1)} needs ${minKey}, ${maxKey} or both: the row count as a multiple of the median, e.g. { ${minKey}: 0.5, ${maxKey}: 2 }`);
    return undefined;
  }
  if (minRatio !== undefined && maxRatio !== undefined && minRatio > maxRatio) {
    reader.report('min_greater_than_max', `${path}.${minKey}`, entries.get(minKey)?.value, `${minKey} is greater than ${maxKey}`);
    return undefined;
  }
  if ((entries.has(lookbackKey) && lookback === undefined) || (entries.has(minKey) && minRatio === undefined) || (entries.has(maxKey) && maxRatio === undefined)) return undefined;
  return { lookback: lookback ?? DEFAULT_LOOKBACK, ...(minRatio === undefined ? {} : { minRatio }), ...(maxRatio === undefined ? {} : { maxRatio }) };
}

function readLookback(reader: YamlReader, node: Node | null, path: string): number | undefined {
  const value = reader.number(node, path, { integer: true });
  if (value === undefined || (value >= MIN_LOOKBACK && value <= MAX_LOOKBACK)) return value;
  reader.report('invalid_value', path, node, `expected a whole number of partitions from ${MIN_LOOKBACK} to ${MAX_LOOKBACK}, found ${value}; the median needs at least ${MIN_LOOKBACK} (default ${DEFAULT_LOOKBACK})`);
  return undefined;
}

function readPositive(reader: YamlReader, node: Node | null, path: string, key: string): number | undefined {
  const value = reader.number(node, path, { min: 0 });
  if (value === undefined || value > 0) return value;
  reader.report('invalid_value', path, node, `expected a number above 0: a ${key} of 0 fails every partition with rows`);
  return undefined;
}
