import type { Violation } from '../report/report.js';
import { linkProblem, readLink, type DropLink } from './drop-link.js';
import { DEFAULT_LAYOUT } from './gate-layout.js';
import { MAX_MARKER_BYTES, type Drop } from './read-drop.js';

/**
 * The `_READY` manifest check. An empty marker means "validate what is there". A manifest
 * (`{"files": [{"path": "part-0000.parquet", "size": 123}]}`, paths relative to the partition)
 * must match the staged files exactly, so a half-finished upload fails instead of validating.
 */
export function checkManifest(drop: Drop): Violation | undefined {
  if (drop.marker.size === 0) return undefined;
  if (drop.marker.size > MAX_MARKER_BYTES) return manifestViolation(drop, [`the marker is ${drop.marker.size} bytes; a manifest may be at most ${MAX_MARKER_BYTES}`]);
  const listed = parseManifest(new TextDecoder().decode(drop.markerBody));
  if (typeof listed === 'string') return manifestViolation(drop, [listed]);
  const staged = new Map(drop.files.map((f) => [f.relative, f.size]));
  const problems: string[] = [];
  for (const [path, size] of listed) {
    const actual = staged.get(path);
    if (actual === undefined) problems.push(`${path}: listed in the manifest but not staged`);
    else if (actual !== size) problems.push(`${path}: the manifest says ${size} bytes, ${actual} are staged`);
  }
  for (const path of staged.keys()) if (!listed.has(path)) problems.push(`${path}: staged but not listed in the manifest`);
  const link = readLink(new TextDecoder().decode(drop.markerBody));
  const badLink = typeof link === 'object' ? linkProblem(DEFAULT_LAYOUT, drop.address, link) : link;
  if (badLink !== undefined) problems.push(badLink);
  return problems.length > 0 ? manifestViolation(drop, problems) : undefined;
}

/** The listed files and sizes, or what is wrong with the manifest. */
export function parseManifest(text: string): Map<string, number> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `the marker is neither empty nor a JSON manifest: ${(error as Error).message}`;
  }
  const files = typeof parsed === 'object' && parsed !== null ? (parsed as { files?: unknown }).files : undefined;
  if (!Array.isArray(files)) return 'the manifest has no "files" list; expected {"files": [{"path": "...", "size": 123}]}';
  const listed = new Map<string, number>();
  for (const [i, entry] of files.entries()) {
    const { path, size } = (entry ?? {}) as { path?: unknown; size?: unknown };
    if (typeof path !== 'string' || !Number.isInteger(size) || (size as number) < 0) return `files[${i}] needs a "path" string and a whole-number "size"`;
    listed.set(path, size as number);
  }
  return listed;
}

/**
 * `drop` names this drop among others of the same files: on a store without object versions (an
 * unversioned bucket, the local endpoint) a marker is known by its ETag and its last-modified
 * second only, so two identical markers put within one second would read as one drop.
 */
export function manifestText(files: readonly { relative: string; size: number }[], drop?: string, linked?: DropLink): string {
  return `${JSON.stringify({ ...(drop ? { drop } : {}), files: files.map((f) => ({ path: f.relative, size: f.size })), ...(linked ? { linked } : {}) }, null, 2)}\n`;
}

function manifestViolation(drop: Drop, problems: readonly string[]): Violation {
  return {
    rule: 'manifest',
    severity: 'error',
    count: problems.length,
    message: `the _READY manifest does not match the staged files: ${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}`,
    samples: problems.slice(0, 5).map((value) => ({ file: drop.marker.key, row: null, value })),
  };
}
