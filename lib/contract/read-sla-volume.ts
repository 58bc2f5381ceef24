import type { Node } from 'yaml';
import type { VolumeVsHistory } from './model.js';
import type { YamlReader } from './yaml-reader.js';

export const VOLUME_KEYS = ['lookback', 'min_ratio', 'max_ratio'] as const;

const PATH = 'sla.volume_vs_history';
/** The median needs a few partitions to mean anything; a year of dailies is plenty. */
export const MIN_LOOKBACK = 3;
export const MAX_LOOKBACK = 366;
export const DEFAULT_LOOKBACK = 7;

/** `volume_vs_history: { lookback, min_ratio, max_ratio }`: the row count against the median of past partitions. */
export function readVolumeVsHistory(reader: YamlReader, node: Node | null): VolumeVsHistory | undefined {
  const entries = reader.map(node, PATH, VOLUME_KEYS);
  if (!entries) return undefined;
  const read = (key: string, fn: (n: Node | null, at: string) => number | undefined): number | undefined => {
    const value = reader.field(entries, node, PATH, key);
    return value === undefined ? undefined : fn(value, `${PATH}.${key}`);
  };
  const lookback = read('lookback', (n, at) => readLookback(reader, n, at));
  const minRatio = read('min_ratio', (n, at) => reader.number(n, at, { min: 0 }));
  const maxRatio = read('max_ratio', (n, at) => readPositive(reader, n, at));
  if (!entries.has('min_ratio') && !entries.has('max_ratio')) {
    reader.report('missing_key', `${PATH}.min_ratio`, node, 'volume_vs_history needs min_ratio, max_ratio or both: the row count as a multiple of the median, e.g. { min_ratio: 0.5, max_ratio: 2 }');
    return undefined;
  }
  if (minRatio !== undefined && maxRatio !== undefined && minRatio > maxRatio) {
    reader.report('min_greater_than_max', `${PATH}.min_ratio`, entries.get('min_ratio')?.value, 'min_ratio is greater than max_ratio');
    return undefined;
  }
  if ((entries.has('lookback') && lookback === undefined) || (entries.has('min_ratio') && minRatio === undefined) || (entries.has('max_ratio') && maxRatio === undefined)) return undefined;
  return { lookback: lookback ?? DEFAULT_LOOKBACK, ...(minRatio === undefined ? {} : { minRatio }), ...(maxRatio === undefined ? {} : { maxRatio }) };
}

function readLookback(reader: YamlReader, node: Node | null, path: string): number | undefined {
  const value = reader.number(node, path, { integer: true });
  if (value === undefined || (value >= MIN_LOOKBACK && value <= MAX_LOOKBACK)) return value;
  reader.report('invalid_value', path, node, `expected a whole number of partitions from ${MIN_LOOKBACK} to ${MAX_LOOKBACK}, found ${value}; the median needs at least ${MIN_LOOKBACK} (default ${DEFAULT_LOOKBACK})`);
  return undefined;
}

function readPositive(reader: YamlReader, node: Node | null, path: string): number | undefined {
  const value = reader.number(node, path, { min: 0 });
  if (value === undefined || value > 0) return value;
  reader.report('invalid_value', path, node, 'expected a number above 0: a max_ratio of 0 fails every partition with rows');
  return undefined;
}
