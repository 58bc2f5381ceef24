import { isScalar, type Node } from 'yaml';

/**
 * What to write instead of a version that is no MAJOR.MINOR.PATCH, when the mistake is a common
 * one. YAML reads an unquoted `version: 1.0` as the number 1 (and `1.20` as 1.2), so the text
 * the author wrote is gone before the loader sees a value; the node's source still has it.
 * Undefined when no likely version can be told.
 */
export function versionHint(node: Node | null, value: unknown): string | undefined {
  if (!node || !isScalar(node)) return undefined;
  if (typeof value === 'number') {
    const written = node.source ?? String(value);
    return `YAML reads the unquoted ${written} as the number ${value}, not as text; quote the version and give all three parts: version: "${threeParts(written) ?? '1.0.0'}"`;
  }
  const meant = typeof value === 'string' ? threeParts(value) : undefined;
  return meant === undefined ? undefined : `a version has three parts: version: "${meant}"`;
}

/** `1` and `1.2` as `1.0.0` and `1.2.0`; undefined for anything else. */
function threeParts(text: string): string | undefined {
  const parts = text.split('.');
  if (parts.length > 2 || !parts.every((part) => /^\d+$/.test(part))) return undefined;
  return [...parts.map((part) => String(Number(part))), '0', '0'].slice(0, 3).join('.');
}
