import { setTimeout as sleep } from 'node:timers/promises';
import type { FetchedObject, Lake, ListedObject } from './lake-client.js';

/** A decision record as the gate wrote it (only the fields the promises speak of). */
export interface DecisionRecord {
  readonly tag?: string;
  readonly attempt?: string;
  readonly outcome?: string;
  readonly decided_at?: string;
  readonly files?: readonly { key?: string; relative?: string; size?: number; etag?: string }[];
  readonly report?: { source?: { marker?: { key?: string; etag?: string; last_modified?: string } } };
}

export interface StoredDecision {
  readonly key: string;
  /** The file name without `.json`: the drop's tag. */
  readonly stem: string;
  readonly record: DecisionRecord | undefined;
  readonly text: string;
}

/** One partition after the trial, every object downloaded and hashed by us. */
export interface PartitionState {
  readonly staging: ReadonlyMap<string, FetchedObject>;
  readonly markers: readonly ListedObject[];
  readonly published: ReadonlyMap<string, FetchedObject>;
  readonly success: { readonly object: FetchedObject; readonly json: SuccessJson | undefined } | undefined;
  /** attempt → relative path → object (data files, `_READY` and `_REPORT.json`). */
  readonly quarantine: ReadonlyMap<string, ReadonlyMap<string, FetchedObject>>;
  /** attempt → relative path → object: files a backfill took out of published/, set aside. */
  readonly replaced: ReadonlyMap<string, ReadonlyMap<string, FetchedObject>>;
  readonly decisions: readonly StoredDecision[];
}

export interface SuccessJson {
  readonly attempt?: string;
  readonly files?: readonly { key?: string; size?: number; etag?: string }[];
}

export const prefixes = (partition: string) => ({
  staging: `staging/orders/v1/${partition}/`,
  published: `published/orders/v1/${partition}/`,
  quarantine: `quarantine/orders/v1/${partition}/`,
  decisions: `_gate/decisions/orders/v1/${partition}/`,
  notices: `_gate/notices/orders/v1/${partition}/`,
  replaced: `_gate/replaced/orders/v1/${partition}/`,
});

/** How long after its last marker a partition is watched at least: a handler validating a re-put marker writes nothing for a while. */
export const QUIET_AFTER_MARKER_MS = 8_000;

/**
 * Waits until no `_READY` is left under the partition's staging prefix, bounded by `settleMs`.
 * Says whether the markers went.
 */
export async function markersGone(lake: Lake, partition: string, settleMs: number): Promise<boolean> {
  const staging = prefixes(partition).staging;
  const until = Date.now() + settleMs;
  for (;;) {
    if (!(await lake.list(staging)).some((o) => o.key.endsWith('/_READY'))) return true;
    if (Date.now() > until) return false;
    await sleep(250);
  }
}

/**
 * Then waits until the gate is done with it as seen from outside: at least QUIET_AFTER_MARKER_MS
 * after the last marker went in, and two listings of all its prefixes a second apart agree.
 */
export async function quiesce(lake: Lake, partition: string, lastMarkerAt: number): Promise<void> {
  const wait = lastMarkerAt + QUIET_AFTER_MARKER_MS - Date.now();
  if (wait > 0) await sleep(wait);
  let before = await snapshot(lake, partition);
  for (let i = 0; i < 30; i++) {
    await sleep(1_000);
    const now = await snapshot(lake, partition);
    if (now === before) return;
    before = now;
  }
}

/** The keys and ETags of everything the gate keeps for the partition. */
export async function snapshot(lake: Lake, partition: string): Promise<string> {
  const lists = await Promise.all(Object.values(prefixes(partition)).map((prefix) => lake.list(prefix)));
  return JSON.stringify(lists.flat().map((o) => [o.key, o.etag]));
}

export async function readPartition(lake: Lake, partition: string): Promise<PartitionState> {
  const p = prefixes(partition);
  const fetchAll = async (prefix: string) => {
    const objects = new Map<string, FetchedObject>();
    for (const listed of await lake.list(prefix)) {
      const got = await lake.fetch(listed.key);
      if (got) objects.set(listed.key.slice(prefix.length), got);
    }
    return objects;
  };
  const stagedAll = await fetchAll(p.staging);
  const markers = [...stagedAll.values()].filter((o) => o.key.endsWith('/_READY'));
  const staging = new Map([...stagedAll].filter(([relative]) => !isNotData(relative)));
  const publishedAll = await fetchAll(p.published);
  const successObject = publishedAll.get('_SUCCESS');
  publishedAll.delete('_SUCCESS');
  const quarantine = byAttempt(await fetchAll(p.quarantine));
  const replaced = byAttempt(await fetchAll(p.replaced));
  const decisions: StoredDecision[] = [];
  for (const [relative, object] of await fetchAll(p.decisions)) {
    const text = new TextDecoder().decode(object.bytes);
    decisions.push({ key: object.key, stem: relative.replace(/\.json$/, ''), record: unquoteDecision(parseJson<DecisionRecord>(text)), text });
  }
  return {
    staging,
    markers,
    published: publishedAll,
    success: successObject ? { object: successObject, json: unquoteSuccess(parseJson<SuccessJson>(new TextDecoder().decode(successObject.bytes))) } : undefined,
    quarantine,
    replaced,
    decisions,
  };
}

/** `<attempt>/<relative>` → attempt → relative → object. */
function byAttempt(objects: ReadonlyMap<string, FetchedObject>): Map<string, Map<string, FetchedObject>> {
  const folders = new Map<string, Map<string, FetchedObject>>();
  for (const [relative, object] of objects) {
    const slash = relative.indexOf('/');
    const attempt = slash < 0 ? '' : relative.slice(0, slash);
    if (!folders.has(attempt)) folders.set(attempt, new Map());
    folders.get(attempt)!.set(relative.slice(slash + 1), object);
  }
  return folders;
}

/** Deletes what the trial left in the lake (data only; the gate's records stay), to bound disk use. */
export async function clearPartition(lake: Lake, partition: string): Promise<void> {
  const p = prefixes(partition);
  for (const prefix of [p.staging, p.published, p.quarantine]) for (const o of await lake.list(prefix)) await lake.delete(o.key);
}

/**
 * S3 ETags are quoted strings (`"9b2c…"`); the gate's records keep them as S3 returned them. The
 * checker compares them with MD5s it computed, so the quotes go (the only liberty taken).
 */
function unquoteDecision(record: DecisionRecord | undefined): DecisionRecord | undefined {
  if (!record || typeof record !== 'object') return record;
  const marker = record.report?.source?.marker;
  return {
    ...record,
    ...(Array.isArray(record.files) ? { files: record.files.map((f) => ({ ...f, etag: unquote(f?.etag) })) } : {}),
    ...(marker ? { report: { ...record.report, source: { ...record.report!.source, marker: { ...marker, etag: unquote(marker.etag) } } } } : {}),
  };
}

function unquoteSuccess(json: SuccessJson | undefined): SuccessJson | undefined {
  if (!json || typeof json !== 'object' || !Array.isArray(json.files)) return json;
  return { ...json, files: json.files.map((f) => ({ ...f, etag: unquote(f?.etag) })) };
}

function unquote<T extends string | undefined>(etag: T): T {
  return (typeof etag === 'string' ? etag.replace(/^"|"$/g, '') : etag) as T;
}

/** Names starting with `_` or `.` at any level are not data (the gate's rule, README). */
export function isNotData(relative: string): boolean {
  return relative.split('/').some((segment) => segment.startsWith('_') || segment.startsWith('.'));
}

export function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}
