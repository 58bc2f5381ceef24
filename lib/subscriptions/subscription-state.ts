import { GateError } from '../errors.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';

/** Beside the gate's other records: `<state prefix>subscriptions.json`. */
export const SUBSCRIPTION_STATE_FILE = 'subscriptions.json';

/**
 * The state prefix expires objects after `stateRetentionDays` (15 at least); a record nobody
 * rewrote that long would vanish and leave every subscription unmanaged. Rewritten daily at least.
 */
const REWRITE_AFTER_MS = 24 * 3600 * 1000;

/** A subscription the reconciler made, and the filter it last set on it. */
export interface ManagedSubscription {
  readonly email: string;
  /** As Subscribe returned it (ReturnSubscriptionArn): known even while the subscription is pending. */
  readonly arn: string;
  /** Sorted contract names: the filter policy `{"contract": [...]}`. */
  readonly contracts: readonly string[];
}

interface StateRecord {
  readonly format: 'contract-gate/subscriptions@1';
  readonly topic: string;
  readonly written_at: string;
  readonly subscriptions: readonly ManagedSubscription[];
}

/** The managed set of one topic, with what a compare-and-swap replacement needs. */
export interface SubscriptionState {
  readonly managed: readonly ManagedSubscription[];
  readonly etag?: string;
  readonly writtenAt?: number;
}

/**
 * The reconciler's record. None yet means nothing is managed. A record of another topic (the
 * stack made a new one) manages nothing here: its subscriptions are not this topic's to remove.
 */
export async function readSubscriptionState(store: ObjectStore, key: string, topicArn: string): Promise<SubscriptionState> {
  const read = await readVersion(store, key);
  if (!read) return { managed: [] };
  const record = parseRecord(new TextDecoder().decode(read.bytes));
  if (!record) {
    // Guessing would either forget subscriptions (never removed) or adopt others' (removed).
    throw new GateError('storage_failed', `${store.location}/${key} is not a contract-gate/subscriptions@1 record; repair it or delete it (its subscriptions then stay, unmanaged)`, { context: { key } });
  }
  const managed = record.topic === topicArn ? record.subscriptions : [];
  return { managed, etag: read.etag, writtenAt: Date.parse(record.written_at) };
}

/**
 * Writes the managed set when it changed, or when the record is a day old; conditional on the
 * version read, so two runs racing cannot lose each other's subscriptions (the loser fails and
 * is retried). True when written.
 */
export async function saveSubscriptionState(store: ObjectStore, key: string, topicArn: string, before: SubscriptionState, managed: readonly ManagedSubscription[], now: number): Promise<boolean> {
  const sorted = [...managed].sort((a, b) => a.email.localeCompare(b.email));
  const unchanged = JSON.stringify(sorted) === JSON.stringify(before.managed);
  if (before.etag !== undefined && unchanged && now - (before.writtenAt ?? 0) < REWRITE_AFTER_MS) return false;
  if (before.etag === undefined && sorted.length === 0) return false;
  const record: StateRecord = { format: 'contract-gate/subscriptions@1', topic: topicArn, written_at: new Date(now).toISOString(), subscriptions: sorted };
  const condition = before.etag === undefined ? { ifNoneMatch: '*' as const } : { ifMatch: before.etag };
  await store.put(key, `${JSON.stringify(record, null, 2)}\n`, { ...condition, contentType: 'application/json' });
  return true;
}

function parseRecord(text: string): StateRecord | undefined {
  try {
    const value = JSON.parse(text) as Partial<StateRecord>;
    if (value.format !== 'contract-gate/subscriptions@1' || typeof value.topic !== 'string' || !Array.isArray(value.subscriptions)) return undefined;
    return value.subscriptions.every(isManaged) ? (value as StateRecord) : undefined;
  } catch {
    return undefined;
  }
}

function isManaged(value: unknown): value is ManagedSubscription {
  const entry = value as Partial<ManagedSubscription> | null;
  return typeof entry?.email === 'string' && typeof entry.arn === 'string' && Array.isArray(entry.contracts) && entry.contracts.every((c) => typeof c === 'string');
}
