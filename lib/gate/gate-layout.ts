/**
 * Where things live in the bucket. Prefix and file names are configuration with these defaults:
 *
 *   staging/<name>/v<major>/<partition>/...       the producer's drop, then `_READY`
 *   published/<name>/v<major>/<partition>/...     after the gate passed it, `_SUCCESS` last
 *   quarantine/<name>/v<major>/<partition>/<attempt>/...   a failed drop, `_REPORT.html` and `_REPORT.json` (last)
 *   _gate/...                                      the gate's own records (decisions, notices)
 *   _audit/<name>/v<major>/<partition>/<seq>.json  what owners did (release, redrive): a hash chain, never expired or replaced
 */
export interface GateLayout {
  readonly staging: string;
  readonly published: string;
  readonly quarantine: string;
  readonly state: string;
  /** Owners' actions, apart from `state` so no lifecycle rule of it expires them and a bucket policy can make them write-once. */
  readonly audit: string;
  readonly marker: string;
  readonly success: string;
  readonly report: string;
  /** The same report as a page a person opens, beside `report`. */
  readonly reportPage: string;
}

export const DEFAULT_LAYOUT: GateLayout = {
  staging: 'staging/',
  published: 'published/',
  quarantine: 'quarantine/',
  state: '_gate/',
  audit: '_audit/',
  marker: '_READY',
  success: '_SUCCESS',
  report: '_REPORT.json',
  reportPage: '_REPORT.html',
};

/** One partition of one major version of a dataset, as named by its path. */
export interface DropAddress {
  readonly dataset: string;
  readonly major: number;
  /** The partition path, e.g. `dt=2026-11-30` or `dt=2026-11-30/hr=06`. */
  readonly partition: string;
}

const MAJOR = /^v(0|[1-9]\d{0,5})$/;

/**
 * Reads `staging/<name>/v<major>/<partition>/_READY`. Returns undefined for any other key: not a
 * marker, not under the layout, or unsafe (see unsafeMarkerKey), so the gate leaves it alone.
 * The name may be any safe segment (`Orders`, `çhäos`): one no contract has is quarantined as
 * `no_contract`, so its producer hears of it, rather than ignored.
 */
export function parseMarkerKey(layout: GateLayout, key: string): DropAddress | undefined {
  if (!isMarkerShaped(layout, key) || unsafeMarkerKey(layout, key) !== undefined) return undefined;
  const segments = key.slice(layout.staging.length, -layout.marker.length - 1).split('/');
  const [dataset, major, ...partition] = segments;
  if (!dataset || !major || !MAJOR.test(major) || partition.length === 0) return undefined;
  return { dataset, major: Number(major.slice(1)), partition: partition.join('/') };
}

/** Under staging and named like the marker: what the bucket notification filters on. */
export function isMarkerShaped(layout: GateLayout, key: string): boolean {
  return key.startsWith(layout.staging) && key.endsWith(`/${layout.marker}`);
}

/** S3's own limit on a key, in UTF-8 bytes: a longer one can only come from a forged event. */
export const MAX_KEY_BYTES = 1024;
/**
 * Far longer than any template renders (`dt=2026-11-30/hr=06` is 19 bytes), and short enough that
 * the quarantine key built from it, with an attempt id and the file names, stays a valid S3 key.
 */
export const MAX_PARTITION_BYTES = 256;

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const PERCENT_ESCAPE = /%[0-9a-f]{2}/i;

/**
 * Why a marker key cannot be handled safely, or undefined. The gate builds the published,
 * quarantine and state keys of a drop from its marker's key, so a key that could name another
 * place (`..`, `.`, an empty segment), that a store or tool may read differently (NUL and other
 * control characters, backslashes, percent-escapes that decode again to `..` or `/`, lone
 * surrogates), or that would be too long once moved, is not processed at all. Such a marker is
 * ignored with this reason, which the handler logs: the drop stays in staging untouched, so
 * nothing is published and nothing is lost, and the SLA probe still reports the partition as
 * missing to its owner. Quarantining it would mean inventing a path for it, which is the very
 * thing an unsafe key makes impossible to do faithfully.
 */
export function unsafeMarkerKey(layout: GateLayout, key: string): string | undefined {
  if (!isMarkerShaped(layout, key)) return undefined;
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes > MAX_KEY_BYTES) return `the key is ${bytes} bytes long; an S3 key is at most ${MAX_KEY_BYTES}`;
  if (LONE_SURROGATE.test(key)) return 'the key is not valid Unicode (it has a lone surrogate)';
  if (CONTROL.test(key)) return `the key contains a control character (U+${key.match(CONTROL)![0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')})`;
  if (key.includes('\\')) return 'the key contains a backslash, which some stores and tools read as a path separator';
  const escape = PERCENT_ESCAPE.exec(key);
  if (escape) return `the key contains the percent-escape "${escape[0]}", which a layer that decodes keys again would read as another path`;
  const segments = key.slice(layout.staging.length, -layout.marker.length - 1).split('/');
  if (segments.some((segment) => segment === '')) return 'the key has an empty segment ("//" or a trailing "/")';
  if (segments.some((segment) => segment === '.' || segment === '..')) return 'the key has a "." or ".." segment';
  const partition = Buffer.byteLength(segments.slice(2).join('/'), 'utf8');
  if (partition > MAX_PARTITION_BYTES) return `the partition path is ${partition} bytes long; at most ${MAX_PARTITION_BYTES} are allowed`;
  return undefined;
}

export function datasetPath(address: DropAddress): string {
  return `${address.dataset}/v${address.major}/${address.partition}/`;
}

export const stagingPrefix = (layout: GateLayout, address: DropAddress): string => `${layout.staging}${datasetPath(address)}`;
export const publishedPrefix = (layout: GateLayout, address: DropAddress): string => `${layout.published}${datasetPath(address)}`;
export const quarantinePrefix = (layout: GateLayout, address: DropAddress, attempt: string): string => `${layout.quarantine}${datasetPath(address)}${attempt}/`;
export const markerKey = (layout: GateLayout, address: DropAddress): string => `${stagingPrefix(layout, address)}${layout.marker}`;
export const statePrefix = (layout: GateLayout, kind: 'decisions' | 'notices' | 'leases', address: DropAddress): string => `${layout.state}${kind}/${datasetPath(address)}`;
