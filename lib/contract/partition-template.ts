/**
 * A partition template such as `dt={ds}` or `dt={ds}/hr={hh}`: `/`-separated `key=value` segments
 * whose values are literals or the placeholders `{ds}` (YYYY-MM-DD) and `{hh}` (00-23).
 */
const PLACEHOLDERS = ['{ds}', '{hh}'] as const;
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*=(\{[a-z]+\}|[A-Za-z0-9_.-]+)$/;

/** Returns what is wrong with a template, or undefined when it is usable. */
export function checkPartitionTemplate(template: string): string | undefined {
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
