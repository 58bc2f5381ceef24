/**
 * Where things live in the bucket. Prefix and file names are configuration with these defaults:
 *
 *   staging/<name>/v<major>/<partition>/...       the producer's drop, then `_READY`
 *   published/<name>/v<major>/<partition>/...     after the gate passed it, `_SUCCESS` last
 *   quarantine/<name>/v<major>/<partition>/<attempt>/...   a failed drop and `_REPORT.json`
 *   _gate/...                                      the gate's own records (decisions, notices)
 */
export interface GateLayout {
  readonly staging: string;
  readonly published: string;
  readonly quarantine: string;
  readonly state: string;
  readonly marker: string;
  readonly success: string;
  readonly report: string;
}

export const DEFAULT_LAYOUT: GateLayout = {
  staging: 'staging/',
  published: 'published/',
  quarantine: 'quarantine/',
  state: '_gate/',
  marker: '_READY',
  success: '_SUCCESS',
  report: '_REPORT.json',
};

/** One partition of one major version of a dataset, as named by its path. */
export interface DropAddress {
  readonly dataset: string;
  readonly major: number;
  /** The partition path, e.g. `dt=2026-11-30` or `dt=2026-11-30/hr=06`. */
  readonly partition: string;
}

const DATASET = /^[a-z][a-z0-9_-]*$/;
const MAJOR = /^v(0|[1-9]\d{0,5})$/;

/**
 * Reads `staging/<name>/v<major>/<partition>/_READY`. Returns undefined for any other key: not a
 * marker, or not under the layout, so the gate leaves it alone.
 */
export function parseMarkerKey(layout: GateLayout, key: string): DropAddress | undefined {
  if (!key.startsWith(layout.staging) || !key.endsWith(`/${layout.marker}`)) return undefined;
  const segments = key.slice(layout.staging.length, -layout.marker.length - 1).split('/');
  const [dataset, major, ...partition] = segments;
  if (!dataset || !DATASET.test(dataset) || !major || !MAJOR.test(major) || partition.length === 0) return undefined;
  return { dataset, major: Number(major.slice(1)), partition: partition.join('/') };
}

export function datasetPath(address: DropAddress): string {
  return `${address.dataset}/v${address.major}/${address.partition}/`;
}

export const stagingPrefix = (layout: GateLayout, address: DropAddress): string => `${layout.staging}${datasetPath(address)}`;
export const publishedPrefix = (layout: GateLayout, address: DropAddress): string => `${layout.published}${datasetPath(address)}`;
export const quarantinePrefix = (layout: GateLayout, address: DropAddress, attempt: string): string => `${layout.quarantine}${datasetPath(address)}${attempt}/`;
export const statePrefix = (layout: GateLayout, kind: 'decisions' | 'notices', address: DropAddress): string => `${layout.state}${kind}/${datasetPath(address)}`;
