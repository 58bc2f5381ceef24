import type { Notifier } from '../notify/notifier.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import type { ChangedFile, Decision, Withheld } from './decision.js';
import { datasetPath, markerKey, publishedPrefix, quarantinePrefix, statePrefix, type GateLayout } from './gate-layout.js';
import { gateNotice } from './gate-notice.js';
import { ensureSibling } from './linked-pair.js';
import { notifyOnce } from './notify-once.js';
import { pairClaimKey, pairNotice } from './pair-notice.js';
import { changedFiles, copyPinned, deletePinned, type ListedObject } from './pinned-copy.js';
import { quarantinedReport } from './quarantined-report.js';
import { recordDecision, type RecordedDecision } from './recorded-decision.js';
import { auditRelease, type Released } from './release-audit.js';
import { successManifest } from './success-manifest.js';
import { supersededDecision } from './superseded.js';
import { createOnce, keepMarker, writeReportPage, readJson } from './carry-out-steps.js';
import { holdWithout, keepOriginals, rejectedRowsKey } from './withheld-rows.js';

export interface CarryOutDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly layout: GateLayout;
  readonly clock: () => number;
}

/**
 * Carries out a recorded decision. Every step is idempotent and copies come before deletes, so a
 * handler that dies between any two calls leaves every staged byte in staging, published or
 * quarantine, and the next delivery picks up where it stopped. Copies and deletes are pinned to
 * the versions the decision judged: if one of them changed, the drop is superseded instead and
 * nothing of it moves. Returns the decision as carried out.
 */
export async function carryOut(deps: CarryOutDeps, recorded: RecordedDecision): Promise<Decision> {
  if (recorded.decision.completed_at !== undefined) {
    await removeMarker(deps, recorded.decision);
    return recorded.decision;
  }
  // A linked side's sibling is recorded before any file moves, so either side's handler finishes both.
  const sibling = await ensureSibling(deps.store, deps.layout, recorded.decision);
  const done = await moveFiles(deps, recorded);
  await notifyOwner(deps, done.decision, sibling);
  const completedAt = new Date(deps.clock()).toISOString();
  if (isRelease(done)) await auditRelease(deps, done, completedAt);
  const completed = await recordDecision(deps.store, { ...done, decision: { ...done.decision, completed_at: completedAt } });
  await removeMarker(deps, completed.decision);
  return completed.decision;
}

/**
 * A publish moves its files: the staged copies go once published. A release's files are the
 * quarantine copies, and they stay: the attempt folder remains whole (files, marker, report) as the
 * record of what was released, and the bytes outlive a later backfill, whose set-aside copies a
 * lifecycle rule may expire.
 */
async function moveFiles(deps: CarryOutDeps, recorded: RecordedDecision): Promise<RecordedDecision> {
  const { decision } = recorded;
  if (decision.outcome === 'duplicate') return recorded;
  if (decision.outcome === 'superseded') {
    await undoCopies(deps, decision);
    return recorded;
  }
  const changed = decision.outcome === 'publish' ? await publish(deps, decision) : await quarantine(deps, decision);
  if (changed.length === 0) {
    if (!decision.release) for (const file of decision.files) await deletePinned(deps.store, file);
    return recorded;
  }
  const superseded = await recordDecision(deps.store, { ...recorded, decision: supersededDecision(decision, changed) });
  await undoCopies(deps, superseded.decision);
  return superseded;
}

async function publish(deps: CarryOutDeps, decision: Decision): Promise<ChangedFile[]> {
  const { store, layout } = deps;
  const prefix = publishedPrefix(layout, decision.address);
  const successKey = `${prefix}${layout.success}`;
  const current = await readJson(store, successKey);
  if (current?.attempt !== decision.attempt) {
    const kept = withheld(decision) ? await keepOriginals(store, layout, decision) : [];
    if (kept.length > 0) return kept;
    const changed = await copyAndManifest(deps, decision, prefix, successKey, current !== undefined);
    if (changed.length > 0) return changed;
  }
  // Also when _SUCCESS was already there: a handler may have died between writing it and this.
  const keep = new Set([successKey, ...decision.files.map((file) => `${prefix}${file.relative}`)]);
  await setAsideLeftovers(store, prefix, replacedPrefix(layout, decision), keep);
  // Held copies a handler left when it died after _SUCCESS: the publish they were for stands.
  await removeAll(store, incomingPrefix(layout, decision));
  return [];
}

async function copyAndManifest(deps: CarryOutDeps, decision: Decision, prefix: string, successKey: string, backfill: boolean): Promise<ChangedFile[]> {
  const { store } = deps;
  const incoming = incomingPrefix(deps.layout, decision);
  // A backfill takes the old publish down before the new one is up: it first holds every judged
  // byte under _gate/incoming/, so a producer changing a staged file half-way leaves the last
  // publish standing. A delivery that finds held copies resumes from them, whatever staging holds now.
  // Withheld rows: what is published is rewritten files, held there too.
  const hold = withheld(decision) ? () => holdWithout(store, decision, incoming) : () => holdIncoming(store, decision, incoming);
  const held = backfill || withheld(decision) || (await holdsAny(store, incoming)) ? await hold() : undefined;
  if (held && 'changed' in held) return held.changed;
  if (!held) {
    const changed = await changedFiles(store, decision.files);
    if (changed.length > 0) return changed;
  }
  // The old manifest goes first, so no consumer reads new files under it.
  if (held) await store.delete(successKey);
  const published = [];
  for (const [i, file] of decision.files.entries()) {
    const key = `${prefix}${file.relative}`;
    const source = held ? held.files[i]! : file;
    const copied = await copyPinned(store, source, key, decision.decided_at);
    if ('changed' in copied) return [copied.changed];
    published.push({ key, size: source.size, etag: copied.etag });
  }
  const rejectedRows = withheld(decision) ? `${store.location}/${rejectedRowsKey(deps.layout, decision)}` : undefined;
  await createOnce(store, successKey, successManifest(decision, published, rejectedRows), decision.attempt);
  if (held) for (const copy of held.files) await deletePinned(store, copy);
  return [];
}

/** Copies of the judged versions under the gate's own prefix, or the change that stopped them (the held copies then go). */
async function holdIncoming(store: ObjectStore, decision: Decision, incoming: string): Promise<{ files: ListedObject[] } | { changed: ChangedFile[] }> {
  const files: ListedObject[] = [];
  for (const file of decision.files) {
    const key = `${incoming}${file.relative}`;
    const copied = await copyPinned(store, file, key, decision.decided_at);
    if ('changed' in copied) {
      for (const copy of files) await deletePinned(store, copy);
      return { changed: [copied.changed] };
    }
    files.push({ key, size: file.size, etag: copied.etag });
  }
  return { files };
}

async function holdsAny(store: ObjectStore, prefix: string): Promise<boolean> {
  for await (const _object of store.list(prefix)) return true;
  return false;
}

function incomingPrefix(layout: GateLayout, decision: Decision): string {
  return `${layout.state}incoming/${datasetPath(decision.address)}${decision.attempt}/`;
}

async function quarantine(deps: CarryOutDeps, decision: Decision): Promise<ChangedFile[]> {
  const { store, layout } = deps;
  const prefix = quarantinePrefix(layout, decision.address, decision.attempt);
  const copies = [];
  for (const file of decision.files) {
    const key = `${prefix}${file.relative}`;
    const copied = await copyPinned(store, file, key, decision.decided_at);
    if ('changed' in copied) return [copied.changed];
    copies.push({ key, size: file.size, etag: copied.etag });
  }
  await keepMarker(store, decision, `${prefix}${layout.marker}`);
  const report = quarantinedReport(decision, layout, copies);
  await writeReportPage(store, `${prefix}${layout.reportPage}`, report);
  await createOnce(store, `${prefix}${layout.report}`, `${JSON.stringify(report, null, 2)}\n`, decision.attempt);
  return [];
}

/**
 * A drop superseded part-way leaves copies of what it judged: they go, so published/ holds no
 * file without a `_SUCCESS` of its own and no quarantine attempt lacks its report. No staged file
 * was deleted yet (deletes start once every copy is made), so nothing is lost.
 */
async function undoCopies(deps: CarryOutDeps, decision: Decision): Promise<void> {
  const { was } = decision.superseded ?? {};
  // A publish with withheld rows fills its quarantine folder first.
  if (was === 'quarantine' || (was === 'publish' && decision.withheld)) await removeAll(deps.store, quarantinePrefix(deps.layout, decision.address, decision.attempt));
  if (was === 'publish') {
    const prefix = publishedPrefix(deps.layout, decision.address);
    // Another attempt's _SUCCESS: a backfill stopped while holding its bytes, and published/ is that publish's, untouched.
    const current = await readJson(deps.store, `${prefix}${deps.layout.success}`);
    if (current !== undefined && current.attempt !== decision.attempt) return;
    for (const file of decision.files) await deletePinned(deps.store, { ...file, key: `${prefix}${file.relative}` });
  }
}

/**
 * A backfill publishes exactly its own files, so files an earlier publish had and this one has
 * not leave `published/`; they are set aside under `_gate/replaced/`, never deleted outright,
 * since they may be the only copy of bytes a producer dropped.
 */
async function setAsideLeftovers(store: ObjectStore, prefix: string, aside: string, keep: ReadonlySet<string>): Promise<void> {
  const stale: ObjectInfo[] = [];
  for await (const object of store.list(prefix)) if (!keep.has(object.key)) stale.push(object);
  for (const object of stale) {
    const copied = await copyPinned(store, object, `${aside}${object.key.slice(prefix.length)}`, new Date(0).toISOString());
    if (!('changed' in copied)) await deletePinned(store, object);
  }
}

function replacedPrefix(layout: GateLayout, decision: Decision): string {
  return `${layout.state}replaced/${datasetPath(decision.address)}${decision.attempt}/`;
}

/** Claim, then send: one notice per drop, or per linked pair, however many handlers get here (a duplicate marker sends none). */
async function notifyOwner(deps: CarryOutDeps, decision: Decision, sibling: Decision | undefined): Promise<void> {
  const notice = sibling ? pairNotice(decision, sibling, deps.layout, deps.store.location) : gateNotice(decision, deps.layout, deps.store.location);
  if (!notice) return;
  const claim = sibling ? pairClaimKey(deps.layout, decision, sibling) : `${statePrefix(deps.layout, 'notices', decision.address)}${decision.tag}.json`;
  await notifyOnce(deps.store, deps.notifier, claim, notice, deps.clock(), { resumeUnsent: true });
}

/**
 * The marker goes last; a newer marker (the producer dropped again) is left for its own run.
 * A release has no marker of its own: the one its report names was the quarantined drop's, long
 * removed, and whatever marker staging holds now is a producer's.
 */
async function removeMarker(deps: CarryOutDeps, decision: Decision): Promise<void> {
  if (decision.release) return;
  const key = markerKey(deps.layout, decision.address);
  const { etag, last_modified } = decision.report.source.marker;
  const marker = await deps.store.head(key);
  if (marker && marker.etag === etag && marker.lastModified.toISOString() === last_modified) await deletePinned(deps.store, { key, size: marker.size, etag });
}

/** A release carried out as decided (not superseded by a quarantined file that changed): it is audited. */
function isRelease(recorded: RecordedDecision): recorded is RecordedDecision & { decision: Released } {
  return recorded.decision.release !== undefined && recorded.decision.outcome === 'publish';
}

function withheld(decision: Decision): decision is Decision & { withheld: Withheld } {
  return decision.withheld !== undefined && decision.withheld.rows > 0;
}

async function removeAll(store: ObjectStore, prefix: string): Promise<void> {
  const keys: string[] = [];
  for await (const object of store.list(prefix)) keys.push(object.key);
  for (const key of keys) await store.delete(key);
}
