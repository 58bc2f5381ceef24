/**
 * A partition template such as `dt={ds}` or `dt={ds}/hr={hh}`: `/`-separated `key=value` segments
 * whose values are literals or the placeholders `{ds}` (YYYY-MM-DD) and `{hh}` (00-23).
 */
const PLACEHOLDERS = ['{ds}', '{hh}'] as const;
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*=(\{[a-z]+\}|[A-Za-z0-9_.-]+)$/;

/**
 * The gate ignores marker keys whose partition path is over 256 bytes (MAX_PARTITION_BYTES in
 * gate-layout.ts); a template this short renders at most that long, so a good drop never is.
 */
export const MAX_TEMPLATE_LENGTH = 128;

/** Returns what is wrong with a template, or undefined when it is usable. */
export function checkPartitionTemplate(template: string): string | undefined {
  if (template.length > MAX_TEMPLATE_LENGTH) return `the partition template is ${template.length} characters long; at most ${MAX_TEMPLATE_LENGTH} are allowed`;
  const segments = template.split('/');
  for (const segment of segments) {
    if (!SEGMENT.test(segment)) return `"${segment}" is not a partition segment; expected key={ds}, key={hh} or key=literal, e.g. dt={ds}/hr={hh}`;
    const value = segment.slice(segment.indexOf('=') + 1);
    if (value.startsWith('{') && !PLACEHOLDERS.includes(value as (typeof PLACEHOLDERS)[number])) {
      return `unknown placeholder ${value}; expected {ds} or {hh}`;
    }
  }
  if (!template.includes('{ds}')) return 'the partition template must contain {ds}';
  if (new Set(segments.map((s) => s.split('=')[0])).size !== segments.length) return 'a partition key appears twice';
  return undefined;
}

/** The values of a partition path that fits a template, e.g. `{ ds: '2026-11-30', hh: '06' }`. */
export interface PartitionValues {
  readonly ds: string;
  readonly hh?: string;
}

const DS = /^\d{4}-\d{2}-\d{2}$/;
const HH = /^([01]\d|2[0-3])$/;

/** Reads a partition path such as `dt=2026-11-30/hr=06` by its template; undefined if it does not fit. */
export function matchPartition(template: string, path: string): PartitionValues | undefined {
  const expected = template.split('/');
  const actual = path.split('/');
  if (expected.length !== actual.length) return undefined;
  const values: { ds?: string; hh?: string } = {};
  for (const [i, segment] of expected.entries()) {
    const [key, value] = segment.split('=') as [string, string];
    const [actualKey, actualValue, rest] = (actual[i] ?? '').split('=');
    if (actualKey !== key || actualValue === undefined || rest !== undefined) return undefined;
    if (value === '{ds}' && DS.test(actualValue) && isRealDate(actualValue)) values.ds = actualValue;
    else if (value === '{hh}' && HH.test(actualValue)) values.hh = actualValue;
    else if (value !== actualValue) return undefined;
  }
  return values.ds ? { ds: values.ds, ...(values.hh ? { hh: values.hh } : {}) } : undefined;
}

/** Writes the partition path of a template for the given values. */
export function renderPartition(template: string, values: PartitionValues): string {
  return template.replace('{ds}', values.ds).replace('{hh}', values.hh ?? '00');
}

function isRealDate(text: string): boolean {
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/**
 * The partition a file or folder path lies in, read by the template from its segments (e.g.
 * `out/orders/dt=2026-11-29/part-0.parquet` → `dt=2026-11-29`), when every path names the same one.
 */
export function partitionOfPaths(paths: readonly string[], template: string): string | undefined {
  const found = new Set(paths.map((path) => partitionOfPath(path, template)));
  const [only] = found;
  return found.size === 1 ? only : undefined;
}

function partitionOfPath(path: string, template: string): string | undefined {
  const width = template.split('/').length;
  const segments = path.split(/[\\/]/).filter((s) => s !== '' && s !== '.');
  // The innermost match: a partition folder may sit below another folder that looks like one.
  for (let end = segments.length; end >= width; end--) {
    const candidate = segments.slice(end - width, end).join('/');
    if (matchPartition(template, candidate)) return candidate;
  }
  return undefined;
}
