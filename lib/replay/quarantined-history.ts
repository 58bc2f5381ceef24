import type { GateLayout } from '../gate/gate-layout.js';
import { readVersion, type ObjectInfo, type ObjectStore } from '../storage/object-store.js';
import { instantOf, unreadableEntry, type HistoryCandidate, type HistoryEntry } from './history-entry.js';
import type { DatasetVersion } from './published-history.js';

export const quarantineRoot = (layout: GateLayout, dataset: DatasetVersion): string => `${layout.quarantine}${dataset.dataset}/v${dataset.major}/`;

/**
 * Every quarantined attempt of a dataset version: a folder `<partition>/<attempt>/` with a
 * `_REPORT.json`, which the gate writes after the data files. Its data files are everything in
 * the folder but the report, its page and the copied marker, as the gate moved them there.
 */
export async function listQuarantined(store: ObjectStore, layout: GateLayout, dataset: DatasetVersion): Promise<HistoryCandidate[]> {
  const root = quarantineRoot(layout, dataset);
  const objects: ObjectInfo[] = [];
  for await (const object of store.list(root)) objects.push(object);
  const reports = objects.filter((o) => o.key.endsWith(`/${layout.report}`));
  return reports.flatMap((record) => {
    const folder = record.key.slice(0, -layout.report.length);
    const segments = folder.slice(root.length, -1).split('/');
    // Below the root a report sits at <partition>/<attempt>/: a shallower one is no attempt of the gate's.
    if (segments.length < 2) return [];
    const notData = new Set([record.key, `${folder}${layout.reportPage}`, `${folder}${layout.marker}`]);
    const listed = objects.filter((o) => o.key.startsWith(folder) && !notData.has(o.key));
    return [{ source: 'quarantined' as const, partition: segments.slice(0, -1).join('/'), folder, record, listed }];
  });
}

/** Reads an attempt's `_REPORT.json`: when it was checked, and the gate's summary then. */
export async function readQuarantined(store: ObjectStore, candidate: HistoryCandidate): Promise<HistoryEntry> {
  const read = await readVersion(store, candidate.record.key);
  if (!read) return unreadableEntry(candidate, `${candidate.record.key} went away during the replay`);
  let report: Record<string, unknown>;
  try {
    report = JSON.parse(new TextDecoder().decode(read.bytes)) as Record<string, unknown>;
  } catch {
    return unreadableEntry(candidate, `${candidate.record.key} is not JSON`);
  }
  const decidedAt = instantOf(report?.checked_at);
  if (decidedAt === undefined) return unreadableEntry(candidate, `${candidate.record.key} says nothing of when it was checked (checked_at)`);
  const attempt = candidate.folder.split('/').at(-2) ?? null;
  const files = (candidate.listed ?? []).map((o) => ({ key: o.key, size: o.size, etag: o.etag }));
  return { ...candidate, attempt, decidedAt, files, ...(typeof report.summary === 'string' ? { thenSummary: report.summary } : {}) };
}
