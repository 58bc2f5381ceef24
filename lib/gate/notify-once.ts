import { GateError } from '../errors.js';
import type { Notice, Notifier } from '../notify/notifier.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';

export interface NotifyOnceOptions {
  /**
   * Send a notice whose claim was left unsent ("sending") by another handler. Only safe for a
   * caller that knows that handler is dead: the gate, which holds the partition's lease.
   */
  readonly resumeUnsent?: boolean;
}

interface Claim {
  readonly token: string;
  readonly subject: string;
  /** Absent in claims written before the state was kept: those count as sent. */
  readonly state?: 'sending' | 'sent';
}

/**
 * Sends a notice once per claim key, however many handlers get here. The claim is a conditional
 * create holding a token, so a write of ours that landed although we saw an error (a reset
 * connection, a 409 on retry) is recognised as ours. It says "sending" until the notifier has
 * accepted the notice, then "sent". A handler that died in between left "sending": with
 * `resumeUnsent` the next one sends it, under the notice's id (the claim key), which the local
 * notifier deduplicates on and SNS subscribers can; so a notice is lost never, and sent twice only
 * if a handler dies between SNS accepting it and the claim saying so.
 */
export async function notifyOnce(store: ObjectStore, notifier: Notifier, claimKey: string, notice: Notice, now: number, options: NotifyOnceOptions = {}): Promise<boolean> {
  const token = `${now.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const etag = await claim(store, claimKey, { token, subject: notice.subject, state: 'sending' }, options);
  if (etag === undefined) return false;
  try {
    await notifier.notify({ ...notice, id: notice.id ?? claimKey });
  } catch (error) {
    await store.delete(claimKey, { ifMatch: etag }).catch(() => undefined); // released, so the retry of this delivery sends it
    throw error;
  }
  await markSent(store, claimKey, { token, subject: notice.subject, state: 'sent' }, etag);
  return true;
}

/**
 * The notice is out: failing the delivery now would send it again. So a claim that cannot be
 * marked is left "sending"; the decision's completion, recorded next, keeps later deliveries
 * from sending, and only if that fails too does one send it again, under the same id.
 */
async function markSent(store: ObjectStore, key: string, sent: Claim, etag: string, tries = 3): Promise<void> {
  try {
    await store.put(key, JSON.stringify(sent), { ifMatch: etag, contentType: 'application/json' });
  } catch (error) {
    if (!(error instanceof GateError)) throw error;
    if (error.code === 'precondition_failed') return; // landed, answer lost, retried
    if (tries > 1) return markSent(store, key, sent, etag, tries - 1);
  }
}

/** The ETag of our claim, or undefined when the notice is someone else's to send (or sent). */
async function claim(store: ObjectStore, key: string, mine: Claim, options: NotifyOnceOptions, tries = 3): Promise<string | undefined> {
  const body = JSON.stringify(mine);
  try {
    return (await store.put(key, body, { ifNoneMatch: '*', contentType: 'application/json' })).etag;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const held = await readClaim(store, key);
    if (held?.claim.token === mine.token) return held.etag;
    if (held?.claim.state === 'sending' && options.resumeUnsent) return takeOver(store, key, body, held.etag);
    if (held !== undefined) return undefined;
    // A 409 (a conflicting write in flight) leaves no claim behind: then the create is tried again.
    if (tries > 1) return claim(store, key, mine, options, tries - 1);
    throw new GateError('storage_failed', `${key}: the notice claim kept conflicting; the next delivery tries again`, { cause: error });
  }
}

async function takeOver(store: ObjectStore, key: string, body: string, etag: string): Promise<string | undefined> {
  try {
    return (await store.put(key, body, { ifMatch: etag, contentType: 'application/json' })).etag;
  } catch (error) {
    if (error instanceof GateError && error.code === 'precondition_failed') return undefined;
    throw error;
  }
}

async function readClaim(store: ObjectStore, key: string): Promise<{ claim: Claim; etag: string } | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  try {
    const parsed = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<Claim>;
    return { claim: { token: String(parsed.token), subject: String(parsed.subject), ...(parsed.state ? { state: parsed.state } : {}) }, etag: read.etag };
  } catch {
    return { claim: { token: '', subject: '' }, etag: read.etag }; // not ours: someone else's to send
  }
}
