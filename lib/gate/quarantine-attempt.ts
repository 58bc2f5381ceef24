import { GateError } from '../errors.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import { readWhole } from '../storage/object-store.js';
import type { GateReport } from './gate-report.js';
import { datasetPath, parseMarkerKey, quarantinePrefix, type DropAddress, type GateLayout } from './gate-layout.js';
import type { StagedFile } from './read-drop.js';

/** One quarantine attempt folder, named by its key: `quarantine/<name>/v<major>/<partition>/<attempt>/`. */
export interface AttemptRef {
  readonly address: DropAddress;
  readonly attempt: string;
  /** The folder's key prefix, ending in `/`. */
  readonly prefix: string;
}

/** An attempt folder as the gate left it: its report, its kept marker and its data files. */
export interface QuarantinedAttempt extends AttemptRef {
  readonly report: GateReport;
  /** The kept `_READY`; absent when the marker was gone and its text unknown when the drop was quarantined. */
  readonly marker?: ObjectInfo;
  /** Every other object of the folder: key = quarantine key, relative path kept, size and ETag as listed. */
  readonly files: readonly StagedFile[];
}

/** What attemptId() makes: the decision time to the second, then the start of the drop's tag. */
const ATTEMPT = /^\d{8}T\d{6}Z-[0-9a-f]{8}$/;

/**
 * Reads a key (with or without its trailing `/`) as an attempt folder. The address is checked as
 * the gate checks a marker's (parseMarkerKey), because the staging and published keys a redrive
 * or a release writes are built from it.
 */
export function parseAttemptKey(layout: GateLayout, key: string): AttemptRef {
  const folder = key.endsWith('/') ? key : `${key}/`;
  const segments = folder.slice(layout.quarantine.length, -1).split('/');
  const attempt = segments.pop() ?? '';
  const address = folder.startsWith(layout.quarantine) && segments.length >= 3 && ATTEMPT.test(attempt)
    ? parseMarkerKey(layout, `${layout.staging}${segments.join('/')}/${layout.marker}`)
    : undefined;
  if (!address) {
    throw new GateError('bad_arguments', `${key} is not a quarantine attempt folder: expected ${layout.quarantine}<name>/v<major>/<partition>/<attempt>/, the attempt like 20261130T050000Z-0e98b8a5`);
  }
  return { address, attempt, prefix: quarantinePrefix(layout, address, attempt) };
}

/**
 * Lists the folder and reads its report. A folder without `_REPORT.json`, or whose files are not
 * the ones its report says were quarantined, is not something the gate left: it cannot run.
 */
export async function readQuarantinedAttempt(store: ObjectStore, layout: GateLayout, ref: AttemptRef): Promise<QuarantinedAttempt> {
  const where = `${store.location}/${ref.prefix}`;
  const objects: ObjectInfo[] = [];
  for await (const object of store.list(ref.prefix)) objects.push(object);
  if (objects.length === 0) throw new GateError('not_found', `${where}: no such quarantine attempt (nothing is stored under it)`);
  const reportKey = `${ref.prefix}${layout.report}`;
  if (!objects.some((o) => o.key === reportKey)) {
    throw new GateError('not_found', `${store.location}/${reportKey} is missing: expected the gate's report in the quarantine attempt folder ${where}`);
  }
  const report = await readReport(store, reportKey, ref);
  const markerKey = `${ref.prefix}${layout.marker}`;
  const marker = objects.find((o) => o.key === markerKey);
  // A publish that withheld rows left them beside the originals: they are the gate's, not the producer's.
  const rejected = report.tolerance?.withheld ? objects.find((o) => /^rejected-rows\.(parquet|csv|jsonl)$/.test(o.key.slice(ref.prefix.length))) : undefined;
  const pageKey = `${ref.prefix}${layout.reportPage}`;
  const files = objects
    .filter((o) => o.key !== reportKey && o.key !== pageKey && o.key !== markerKey && o !== rejected)
    .map((o) => ({ key: o.key, relative: o.key.slice(ref.prefix.length), size: o.size, etag: o.etag }));
  checkAgainstReport(where, report, files, ref.address);
  return { ...ref, report, ...(marker ? { marker } : {}), files };
}

async function readReport(store: ObjectStore, key: string, ref: AttemptRef): Promise<GateReport> {
  const text = new TextDecoder().decode((await readWhole(store, key)) ?? new Uint8Array());
  let report: Partial<GateReport> | undefined;
  try {
    report = JSON.parse(text) as Partial<GateReport>;
  } catch {
    // reported below
  }
  if (!report || report.attempt !== ref.attempt || !Array.isArray(report.source?.files)) {
    throw new GateError('bad_arguments', `${store.location}/${key} is not the gate's report of attempt ${ref.attempt}`);
  }
  return report as GateReport;
}

/**
 * The folder must hold exactly the files the report says the drop had (path and size: a copy
 * keeps the size, and a multipart copy changes the ETag), so what is redriven or released is
 * what was judged.
 */
function checkAgainstReport(where: string, report: GateReport, files: readonly StagedFile[], address: DropAddress): void {
  const judged = new Map(report.source.files.map((f) => [relativeToPartition(f.key, address), f.size]));
  const here = new Map(files.map((f) => [f.relative, f.size]));
  const problems = [
    ...[...here].filter(([path, size]) => judged.get(path) !== size).map(([path]) => `${path} is not a file of the report, or not at its size`),
    ...[...judged].filter(([path]) => !here.has(path)).map(([path]) => `${path} is in the report but not in the folder`),
  ];
  if (problems.length > 0) {
    throw new GateError('bad_arguments', `${where} does not hold what its _REPORT.json says was quarantined: ${problems.slice(0, 5).join('; ')}`);
  }
}

/**
 * Why the folder's data files may not be the bytes the gate judged, or undefined. The report
 * records the ETag of every copy the gate made into the folder; a file whose ETag differs was
 * replaced since, and is refused. A report from before those ETags were recorded: with `legacy:
 * 'staged'` (release) a file must still have the ETag of the staged version the gate judged,
 * which the copy of a single-part upload keeps, or it cannot be told from a replacement; with
 * `legacy: 'size'` (redrive, whose bytes the gate judges again) the size check above is all.
 */
export function unjudgedFiles(location: string, attempt: QuarantinedAttempt, legacy: 'staged' | 'size'): string | undefined {
  const { report } = attempt;
  const recorded = report.quarantined ? new Map(report.quarantined.map((f) => [f.key, f.etag])) : undefined;
  const staged = new Map(report.source.files.map((f) => [relativeToPartition(f.key, attempt.address), f.etag]));
  const problems: string[] = [];
  for (const file of attempt.files) {
    const judged = recorded ? recorded.get(file.key) : legacy === 'staged' ? staged.get(file.relative) : undefined;
    if (judged === undefined && recorded) problems.push(`${location}/${file.key} has no ETag in the report`);
    else if (judged !== undefined && judged !== file.etag) {
      const whose = recorded ? 'the report recorded for the copy the gate quarantined' : 'the staged file the gate judged had (the report predates the ETags of quarantine copies)';
      problems.push(`${location}/${file.key} has ETag ${file.etag}, not ${judged}, which ${whose}`);
    }
  }
  if (problems.length === 0) return undefined;
  const advice = recorded
    ? 'the file was replaced since it was quarantined: restore the version the gate quarantined (the bucket keeps earlier versions), or have the producer drop the batch again'
    : 'a replacement cannot be told from a copy of a multipart upload here: redrive the attempt instead, so the gate judges the bytes there now';
  return `${problems.slice(0, 5).join('; ')}: these are not the bytes the gate judged; ${advice}`;
}

/** A staged key's path below its partition, whatever the staging prefix of the gate that judged it. */
function relativeToPartition(key: string, address: DropAddress): string {
  const path = datasetPath(address);
  const at = key.startsWith(path) ? 0 : key.indexOf(`/${path}`) + 1;
  return at === 0 && !key.startsWith(path) ? key : key.slice(at + path.length);
}
