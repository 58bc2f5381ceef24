import type { GateLayout } from '../gate/gate-layout.js';
import { isDataPath } from '../gate/read-drop.js';
import type { ObjectStore } from '../storage/object-store.js';
import { attemptKey, datasetKey, stagedKey, successKey } from './lake-keys.js';
import type { LakeTables } from './partition-table.js';
import type { StatusProblems } from './status-problems.js';

/** One LIST of published/: every `_SUCCESS` places a published partition; data files only name the dataset. */
export async function listPublishedRoot(store: ObjectStore, layout: GateLayout, tables: LakeTables): Promise<void> {
  for await (const object of store.list(layout.published)) {
    const ref = successKey(layout, object.key);
    if (ref) tables.table(ref.dataset, ref.major).at(ref.partition).success = object.key;
    else noteDataset(tables, layout.published, object.key);
  }
}

/**
 * One LIST of quarantine/: each attempt folder with a report is an attempt; the report page
 * (`_REPORT.html`) is remembered for folders that have both, whichever of the two is listed first.
 */
export async function listQuarantineRoot(store: ObjectStore, layout: GateLayout, tables: LakeTables, problems: StatusProblems): Promise<void> {
  const pagesWithoutReport = new Set<string>();
  for await (const object of store.list(layout.quarantine)) {
    const ref = attemptKey(layout, object.key);
    if (!ref) {
      noteDataset(tables, layout.quarantine, object.key);
      // A folder object (`.../`) is what a console's "create folder" leaves, not a record.
      if (!object.key.endsWith('/')) problems.misfit(layout.quarantine, object.key, `${layout.quarantine}<dataset>/v<major>/<partition>/<attempt>/...`);
      continue;
    }
    const table = tables.table(ref.dataset, ref.major);
    const folder = `${ref.dataset}/v${ref.major}/${ref.partition}/${ref.attempt}`;
    if (ref.file === layout.report) {
      const summary = table.at(ref.partition);
      summary.attempts = [...(summary.attempts ?? []), ref.attempt];
      if (pagesWithoutReport.delete(folder)) summary.pages = [...(summary.pages ?? []), ref.attempt];
    } else if (ref.file === layout.reportPage) {
      const summary = table.peek(ref.partition);
      if (summary?.attempts?.includes(ref.attempt)) summary.pages = [...(summary.pages ?? []), ref.attempt];
      else pagesWithoutReport.add(folder);
    }
  }
}

/** One LIST of staging/: per partition, how many files and whether the marker is there. */
export async function listStagingRoot(store: ObjectStore, layout: GateLayout, tables: LakeTables): Promise<void> {
  const depthOf = (dataset: string, major: number) => tables.find(dataset, major)?.template?.split('/').length;
  for await (const object of store.list(layout.staging)) {
    const ref = stagedKey(layout, object.key, depthOf);
    if (!ref) {
      noteDataset(tables, layout.staging, object.key); // a producer's stray object: the gate ignores it too
      continue;
    }
    // What the gate does not read (`_SUCCESS`, `.crc` beside the data) is no drop: it stays when the drop is done.
    if (ref.file !== layout.marker && !isDataPath(ref.file)) continue;
    const summary = tables.table(ref.dataset, ref.major).at(ref.partition);
    const staged = (summary.staged ??= { files: 0, marker: false, newest: 0 });
    if (ref.file === layout.marker) staged.marker = true;
    else staged.files += 1;
    staged.newest = Math.max(staged.newest, object.lastModified.getTime());
  }
}

/** A key under `<dataset>/v<major>/` names a dataset even when it places no partition. */
function noteDataset(tables: LakeTables, root: string, key: string): void {
  const found = datasetKey(root, key);
  if (found) tables.table(found.dataset, found.major);
}
