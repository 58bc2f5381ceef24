import { rejectedRowsFile } from '../rows/rejected-rows-file.js';
import { rewriteWithout } from '../rows/rewrite-file.js';
import type { ByteSource } from '../formats/byte-source.js';
import { objectFile } from '../storage/object-file.js';
import { uploadChunks, type ObjectStore } from '../storage/object-store.js';
import { createOnce, keepMarker, writeReportPage } from './carry-out-steps.js';
import type { ChangedFile, Decision, Withheld } from './decision.js';
import { quarantinePrefix, type GateLayout } from './gate-layout.js';
import { changedFiles, copyPinned, deletePinned, isChangeError, type ListedObject } from './pinned-copy.js';
import { quarantinedReport } from './quarantined-report.js';
import type { StagedFile } from './read-drop.js';

/** Where a publish under a row tolerance leaves the rows it withheld. */
export function rejectedRowsKey(layout: GateLayout, decision: Decision & { withheld: Withheld }): string {
  return `${quarantinePrefix(layout, decision.address, decision.attempt)}rejected-rows.${decision.withheld.format}`;
}

/**
 * Before any row is published: the original files (every byte the producer dropped), the
 * rejected rows with their reasons, the marker and the report go to the attempt's quarantine
 * folder. All are read pinned to the judged versions: a file changed since is the drop superseded.
 */
export async function keepOriginals(store: ObjectStore, layout: GateLayout, decision: Decision & { withheld: Withheld }): Promise<ChangedFile[]> {
  const prefix = quarantinePrefix(layout, decision.address, decision.attempt);
  const copies = [];
  for (const file of decision.files) {
    const key = `${prefix}${file.relative}`;
    const copied = await copyPinned(store, file, key, decision.decided_at);
    if ('changed' in copied) return [copied.changed];
    copies.push({ key, size: file.size, etag: copied.etag });
  }
  const rejected = await pinned(store, decision.files, async (sources) => {
    const inputs = decision.withheld.files.map((w) => ({ file: { path: stagedKey(decision, w.relative), rows: w.rows, reasons: w.reasons }, source: sources.get(w.relative)! }));
    const file = await rejectedRowsFile(decision.withheld.format, inputs);
    return uploadChunks(store, rejectedRowsKey(layout, decision), file.chunks);
  });
  if ('changed' in rejected) return rejected.changed;
  await keepMarker(store, decision, `${prefix}${layout.marker}`);
  const report = quarantinedReport(decision, layout, copies);
  await writeReportPage(store, `${prefix}${layout.reportPage}`, report);
  await createOnce(store, `${prefix}${layout.report}`, `${JSON.stringify(report, null, 2)}\n`, decision.attempt);
  return [];
}

/**
 * The files to publish, held under `incoming`: a file with withheld rows rewritten without them,
 * any other copied as it is. Rewriting is deterministic, so a delivery that resumes writes the same bytes.
 */
export async function holdWithout(store: ObjectStore, decision: Decision & { withheld: Withheld }, incoming: string): Promise<{ files: ListedObject[] } | { changed: ChangedFile[] }> {
  const byFile = new Map(decision.withheld.files.map((w) => [w.relative, w]));
  const files: ListedObject[] = [];
  for (const file of decision.files) {
    const key = `${incoming}${file.relative}`;
    const withheld = byFile.get(file.relative);
    const held = withheld ? await rewriteHeld(store, file, key, decision.withheld.format, withheld.rows) : await copyAsIs(store, file, key, decision.decided_at);
    if ('changed' in held) {
      for (const copy of files) await deletePinned(store, copy);
      return { changed: [held.changed] };
    }
    files.push({ key, size: held.size, etag: held.etag });
  }
  return { files };
}

async function copyAsIs(store: ObjectStore, file: StagedFile, key: string, decidedAt: string): Promise<{ etag: string; size: number } | { changed: ChangedFile }> {
  const copied = await copyPinned(store, file, key, decidedAt);
  return 'changed' in copied ? copied : { etag: copied.etag, size: file.size };
}

async function rewriteHeld(store: ObjectStore, file: StagedFile, key: string, format: Withheld['format'], rows: readonly number[]): Promise<{ etag: string; size: number } | { changed: ChangedFile }> {
  const rewritten = await pinned(store, [file], async (sources) => {
    const out = await rewriteWithout(format, sources.get(file.relative)!, rows, { path: file.key });
    return uploadChunks(store, key, out.chunks);
  });
  return 'changed' in rewritten ? { changed: rewritten.changed[0]! } : rewritten.done;
}

/** Runs `use` over the files' pinned sources; a file replaced or deleted meanwhile is reported as changed. */
async function pinned<T>(store: ObjectStore, files: readonly StagedFile[], use: (sources: ReadonlyMap<string, ByteSource>) => Promise<T>): Promise<{ done: T } | { changed: ChangedFile[] }> {
  const opened = await Promise.all(files.map(async (file) => ({ file, handle: await objectFile(store, file).open() })));
  try {
    return { done: await use(new Map(opened.map(({ file, handle }) => [file.relative, handle.source]))) };
  } catch (error) {
    if (!isChangeError(error)) throw error;
    const changed = await changedFiles(store, files);
    if (changed.length === 0) throw error;
    return { changed };
  } finally {
    await Promise.all(opened.map(({ handle }) => handle.close()));
  }
}

function stagedKey(decision: Decision, relative: string): string {
  return decision.files.find((f) => f.relative === relative)?.key ?? relative;
}
