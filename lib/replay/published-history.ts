import type { DropAddress, GateLayout } from '../gate/gate-layout.js';
import { isProblem, publishedFiles, readSuccessManifest, type SuccessManifest } from '../gate/success-record.js';
import type { ObjectStore } from '../storage/object-store.js';
import { instantOf, unreadableEntry, type HistoryCandidate, type HistoryEntry } from './history-entry.js';

export type DatasetVersion = Pick<DropAddress, 'dataset' | 'major'>;

export const publishedRoot = (layout: GateLayout, dataset: DatasetVersion): string => `${layout.published}${dataset.dataset}/v${dataset.major}/`;

/** Every published partition of a dataset version: each one with a `_SUCCESS`, the gate's last word on it. */
export async function listPublished(store: ObjectStore, layout: GateLayout, dataset: DatasetVersion): Promise<HistoryCandidate[]> {
  const root = publishedRoot(layout, dataset);
  const found: HistoryCandidate[] = [];
  for await (const object of store.list(root)) {
    if (!object.key.endsWith(`/${layout.success}`)) continue;
    const folder = object.key.slice(0, -layout.success.length);
    found.push({ source: 'published', partition: folder.slice(root.length, -1), folder, record: object });
  }
  return found;
}

/**
 * Reads a `_SUCCESS`: the files it lists with their ETags are the bytes consumers read, so they
 * are what a replay judges. Read as one version even if a backfill replaces it meanwhile.
 */
export async function readPublished(store: ObjectStore, candidate: HistoryCandidate): Promise<HistoryEntry> {
  const manifest = await readSuccessManifest(store, candidate.record.key);
  if (!manifest) return unreadableEntry(candidate, `${candidate.record.key} went away during the replay (a backfill under way?)`);
  if (isProblem(manifest)) return unreadableEntry(candidate, manifest.problem);
  const facts = replayFacts(manifest);
  return typeof facts === 'string' ? unreadableEntry(candidate, `${manifest.where} ${facts}`) : { ...candidate, ...facts };
}

type SuccessFacts = Pick<HistoryEntry, 'attempt' | 'decidedAt' | 'files' | 'thenSummary' | 'released'>;

/** What a replay needs of a manifest, or what is missing from it. */
function replayFacts(manifest: SuccessManifest): SuccessFacts | string {
  const parsed = manifest.fields;
  const files = publishedFiles(manifest);
  if (isProblem(files)) return 'lists no files as {key, size, etag}';
  const decidedAt = instantOf(parsed.decided_at) ?? instantOf(checksOf(parsed).checked_at);
  if (decidedAt === undefined) return 'says nothing of when the gate decided it (decided_at)';
  const checks = checksOf(parsed);
  const warnings = Array.isArray(checks.warnings) ? checks.warnings.length : 0;
  // A release publishes an attempt whose checks failed; its _SUCCESS keeps them, and says so.
  const released = parsed.release !== undefined || checks.status === 'fail';
  return {
    attempt: typeof parsed.attempt === 'string' ? parsed.attempt : null,
    decidedAt,
    files,
    thenSummary: released ? `released over ${String(checks.violations ?? 'its')} failed checks` : warnings > 0 ? `passed with ${warnings} warning(s)` : 'passed: no violations',
    ...(released ? { released } : {}),
  };
}

function checksOf(parsed: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const checks = parsed.checks;
  return checks !== null && typeof checks === 'object' ? (checks as Record<string, unknown>) : {};
}
