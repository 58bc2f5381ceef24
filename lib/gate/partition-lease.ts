import { setTimeout as sleep } from 'node:timers/promises';
import { GateError } from '../errors.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import { statePrefix, type DropAddress, type GateLayout } from './gate-layout.js';

/**
 * Who may handle a partition now. Drops of one partition are handled one at a time: a re-put
 * marker or a backfill racing its predecessor waits until the earlier drop is carried out, so
 * no handler reads files another is moving, and two publishes never interleave.
 */
export interface LeaseSettings {
  /** Names the holder in the lease record and in "busy" messages. */
  readonly holder: string;
  /** How long a lease outlives a holder that died: longer than any one handler can run. */
  readonly ttlMs: number;
  /** Whether a lease another holder left may be taken before it expires (a restarted `serve`: its predecessor is dead). */
  readonly takeOver?: (holder: string) => boolean;
  /** How long to wait for a busy partition before giving up. @default 60_000 */
  readonly waitMs?: number;
  /**
   * Renew the lease this often while `work` runs, so a short `ttlMs` outlives a slow holder but
   * not a dead one. Without it the lease is taken once, for `ttlMs`.
   */
  readonly renewMs?: number;
  /** What the "busy" error tells whoever gave up waiting. @default that the delivery is retried */
  readonly busyAdvice?: (held: HeldLease) => string;
  /** Told when the lease is taken from another holder that left it (expired, or `takeOver`). */
  readonly onTakeOver?: (held: HeldLease) => void;
}

/** Who holds a lease, and until when at the latest. */
export interface HeldLease {
  readonly key: string;
  readonly holder: string;
  readonly expires_at: string;
}

interface LeaseRecord {
  readonly holder: string;
  readonly token: string;
  readonly expires_at: string;
}

const POLL_MS = [50, 100, 250, 500, 1_000];

export function leaseKey(layout: GateLayout, address: DropAddress): string {
  return `${statePrefix(layout, 'leases', address)}lease.json`;
}

/** Runs `work` holding the partition's lease; the lease is released however `work` ends. */
export async function withPartitionLease<T>(store: ObjectStore, key: string, settings: LeaseSettings, now: () => number, work: () => Promise<T>): Promise<T> {
  const token = Math.random().toString(36).slice(2, 12);
  const held = { etag: await acquire(store, key, settings, now, token) };
  const renewal = settings.renewMs === undefined ? undefined : renewEvery(settings.renewMs, () => renew(store, key, settings, now, token, held));
  try {
    return await work();
  } finally {
    await renewal?.stop();
    await store.delete(key, { ifMatch: held.etag }).catch((error: unknown) => {
      if (!isConflict(error)) throw error; // lost to a taker: the lease is theirs now
    });
  }
}

async function acquire(store: ObjectStore, key: string, settings: LeaseSettings, now: () => number, token: string): Promise<string> {
  const waitMs = settings.waitMs ?? 60_000;
  let waited = 0;
  for (let attempt = 0; ; attempt++) {
    const at = now();
    const record = leaseRecord(settings, token, at);
    const taken = await tryTake(store, key, record, settings, at);
    if (typeof taken === 'string') return taken;
    if (waited >= waitMs) throw busy(key, taken, settings);
    const pause = POLL_MS[Math.min(attempt, POLL_MS.length - 1)]!;
    await sleep(pause);
    waited += pause;
  }
}

/** Our lease's ETag, or the record of the live lease in the way. */
async function tryTake(store: ObjectStore, key: string, record: LeaseRecord, settings: LeaseSettings, at: number): Promise<string | LeaseRecord> {
  const body = `${JSON.stringify(record)}\n`;
  const options = { contentType: 'application/json' };
  try {
    return (await store.put(key, body, { ...options, ifNoneMatch: '*' })).etag;
  } catch (error) {
    if (!isConflict(error)) throw error;
  }
  const held = await readLease(store, key);
  if (!held) return record; // released meanwhile: the next attempt creates it
  if (held.record.token === record.token) return held.etag; // our create landed, though its answer was lost
  const expired = Date.parse(held.record.expires_at) <= at;
  if (!expired && !settings.takeOver?.(held.record.holder)) return held.record;
  try {
    const { etag } = await store.put(key, body, { ...options, ifMatch: held.etag });
    settings.onTakeOver?.({ key, holder: held.record.holder, expires_at: held.record.expires_at });
    return etag;
  } catch (error) {
    if (isConflict(error)) return held.record;
    throw error;
  }
}

/**
 * Removes a lease whose holder died and left it expired, when nothing is left to do under it (an
 * owner's command found its work done): a lease in the listing should mean someone is at work.
 */
export async function clearDeadLease(store: ObjectStore, key: string, now: number): Promise<void> {
  const held = await readLease(store, key);
  if (!held || Date.parse(held.record.expires_at) > now) return;
  await store.delete(key, { ifMatch: held.etag }).catch((error: unknown) => {
    if (!isConflict(error)) throw error; // taken meanwhile: it is live again
  });
}

async function readLease(store: ObjectStore, key: string): Promise<{ record: LeaseRecord; etag: string } | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  try {
    const record = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<LeaseRecord>;
    if (typeof record.holder === 'string' && typeof record.expires_at === 'string') return { record: record as LeaseRecord, etag: read.etag };
  } catch {
    // not a lease we wrote: treat as expired, so it cannot block the partition forever
  }
  return { record: { holder: 'unknown', token: '', expires_at: new Date(0).toISOString() }, etag: read.etag };
}

function isConflict(error: unknown): boolean {
  return error instanceof GateError && error.code === 'precondition_failed';
}

function leaseRecord(settings: LeaseSettings, token: string, at: number): LeaseRecord {
  return { holder: settings.holder, token, expires_at: new Date(at + settings.ttlMs).toISOString() };
}

/**
 * Moves our lease's expiry on, pinned to the version we wrote last. A lease that is no longer
 * ours (taken over: we looked dead) stays theirs; a failed renewal is tried again next time.
 */
async function renew(store: ObjectStore, key: string, settings: LeaseSettings, now: () => number, token: string, held: { etag: string }): Promise<void> {
  const body = `${JSON.stringify(leaseRecord(settings, token, now()))}\n`;
  try {
    held.etag = (await store.put(key, body, { contentType: 'application/json', ifMatch: held.etag })).etag;
  } catch {
    // lost to a taker, or storage failing: either way the work goes on and the release below tells
  }
}

/** Runs `tick` every `ms`, one at a time; `stop` waits for a tick under way, so no renewal lands after the release. */
function renewEvery(ms: number, tick: () => Promise<void>): { stop(): Promise<void> } {
  let running: Promise<void> = Promise.resolve();
  const timer = setInterval(() => {
    running = running.then(tick);
  }, ms);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

function busy(key: string, held: LeaseRecord, settings: LeaseSettings): GateError {
  const lease = { key, holder: held.holder, expires_at: held.expires_at };
  const advice = settings.busyAdvice?.(lease) ?? 'this delivery is retried';
  return new GateError('partition_busy', `${key}: another handler (${held.holder}) is handling a drop of this partition until ${held.expires_at} at the latest; ${advice}`, {
    context: { key, holder: held.holder },
  });
}
