import { GateError } from '../errors.js';
import type { Notifier } from '../notify/notifier.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import type { Decision } from './decision.js';
import { markerKey, publishedPrefix, quarantinePrefix, statePrefix, type GateLayout } from './gate-layout.js';
import { gateNotice } from './gate-notice.js';
import { notifyOnce } from './notify-once.js';
import { quarantinedReport } from './quarantined-report.js';
import { successManifest } from './success-manifest.js';

export interface CarryOutDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  readonly layout: GateLayout;
  readonly clock: () => number;
}

/**
 * Carries out a decision. Every step is idempotent and copies come before deletes, so a handler
 * that dies between any two calls leaves every staged byte in staging, published or quarantine,
 * and the next delivery picks up where it stopped.
 */
export async function carryOut(deps: CarryOutDeps, decision: Decision): Promise<void> {
  if (decision.outcome === 'publish') await publish(deps, decision);
  else await quarantine(deps, decision);
  for (const file of decision.files) await deps.store.delete(file.key);
  await notifyOwner(deps, decision);
  await removeMarker(deps, decision);
}

async function publish(deps: CarryOutDeps, decision: Decision): Promise<void> {
  const { store, layout } = deps;
  const prefix = publishedPrefix(layout, decision.address);
  const successKey = `${prefix}${layout.success}`;
  const current = await readJson(store, successKey);
  if (current?.attempt === decision.attempt) return;
  // A backfill: the old manifest goes first, so no consumer reads new files under it.
  if (current) await store.delete(successKey);
  const published = [];
  for (const file of decision.files) {
    const key = `${prefix}${file.relative}`;
    published.push({ key, size: file.size, etag: await copyOnce(store, file.key, key, file) });
  }
  await createOnce(store, successKey, successManifest(decision, published), decision.attempt);
  await removeLeftovers(store, prefix, new Set([successKey, ...published.map((p) => p.key)]));
}

async function quarantine(deps: CarryOutDeps, decision: Decision): Promise<void> {
  const { store, layout } = deps;
  const prefix = quarantinePrefix(layout, decision.address, decision.attempt);
  for (const file of decision.files) await copyOnce(store, file.key, `${prefix}${file.relative}`, file);
  const marker = decision.report.source.marker;
  await copyOnce(store, markerKey(layout, decision.address), `${prefix}${layout.marker}`, { size: -1, etag: marker.etag }).catch(ignoreNotFound);
  await createOnce(store, `${prefix}${layout.report}`, `${JSON.stringify(quarantinedReport(decision, layout), null, 2)}\n`, decision.attempt);
}

/** Copies unless an earlier delivery already did; a vanished source is fine if its copy exists. */
async function copyOnce(store: ObjectStore, source: string, target: string, expected: { size: number; etag: string }): Promise<string> {
  const matches = async () => {
    const there = await store.head(target);
    const sameSize = expected.size < 0 || there?.size === expected.size;
    // A multipart ETag ("...-3") changes on copy; size is what can be compared then.
    return there && sameSize && (there.etag === expected.etag || expected.etag.includes('-') || expected.size < 0) ? there.etag : undefined;
  };
  const done = await matches();
  if (done) return done;
  try {
    return (await store.copy(source, target)).etag;
  } catch (error) {
    const copied = error instanceof GateError && error.code === 'not_found' ? await matches() : undefined;
    if (copied) return copied;
    throw error;
  }
}

/** Conditional create; an existing object written by the same attempt counts as done. */
async function createOnce(store: ObjectStore, key: string, body: string, attempt: string): Promise<void> {
  try {
    await store.put(key, body, { ifNoneMatch: '*', contentType: 'application/json' });
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const existing = await readJson(store, key);
    if (existing?.attempt !== attempt) throw new GateError('precondition_failed', `${key} was written by attempt ${String(existing?.attempt)} while ${attempt} was publishing`, { cause: error });
  }
}

async function removeLeftovers(store: ObjectStore, prefix: string, keep: ReadonlySet<string>): Promise<void> {
  const stale: string[] = [];
  for await (const object of store.list(prefix)) if (!keep.has(object.key)) stale.push(object.key);
  for (const key of stale) await store.delete(key);
}

/** Claim, then send: at most one notice per drop however many handlers get here. */
async function notifyOwner(deps: CarryOutDeps, decision: Decision): Promise<void> {
  const claim = `${statePrefix(deps.layout, 'notices', decision.address)}${decision.tag}.json`;
  await notifyOnce(deps.store, deps.notifier, claim, gateNotice(decision, deps.layout, deps.store.location), deps.clock());
}

/** The marker goes last; a newer marker (the producer dropped again) is left for its own run. */
async function removeMarker(deps: CarryOutDeps, decision: Decision): Promise<void> {
  const key = markerKey(deps.layout, decision.address);
  const marker = await deps.store.head(key);
  if (marker && marker.etag === decision.report.source.marker.etag && marker.lastModified.toISOString() === decision.report.source.marker.last_modified) {
    await deps.store.delete(key);
  }
}

/** A JSON object the gate wrote; something else under the key reads as `{}`. */
async function readJson(store: ObjectStore, key: string): Promise<Record<string, unknown> | undefined> {
  const bytes = await readWhole(store, key);
  if (!bytes) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return {};
  }
}

function ignoreNotFound(error: unknown): void {
  if (!(error instanceof GateError && error.code === 'not_found')) throw error;
}
