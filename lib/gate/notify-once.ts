import { GateError } from '../errors.js';
import type { Notice, Notifier } from '../notify/notifier.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';

/**
 * Sends a notice at most once per claim key, however many handlers get here. The claim is a
 * conditional create holding a token, so a write of ours that landed although we saw an error
 * (a reset connection, a 409 on retry) is recognised as ours and the notice still goes out. The
 * one case that loses a notice is a handler that dies after its claim landed and before the send:
 * telling that apart from a handler still sending would take a timer, and a duplicate page is the
 * worse failure for an on-call owner.
 */
export async function notifyOnce(store: ObjectStore, notifier: Notifier, claimKey: string, notice: Notice, now: number): Promise<boolean> {
  const token = `${now.toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  if (!(await claim(store, claimKey, token, notice.subject))) return false;
  try {
    await notifier.notify(notice);
    return true;
  } catch (error) {
    await store.delete(claimKey); // released, so the retry of this delivery sends it
    throw error;
  }
}

/** A 409 (a conflicting write in flight) leaves no claim behind: then the create is tried again. */
async function claim(store: ObjectStore, key: string, token: string, subject: string, tries = 3): Promise<boolean> {
  try {
    await store.put(key, JSON.stringify({ token, subject }), { ifNoneMatch: '*', contentType: 'application/json' });
    return true;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const held = await readWhole(store, key);
    if (held !== undefined) return claimToken(held) === token;
    if (tries > 1) return claim(store, key, token, subject, tries - 1);
    // Still no claim after conflicts: fail this delivery so the marker stays and a later one sends.
    throw new GateError('storage_failed', `${key}: the notice claim kept conflicting; the next delivery tries again`, { cause: error });
  }
}

function claimToken(bytes: Uint8Array | undefined): string | undefined {
  if (!bytes) return undefined;
  try {
    return (JSON.parse(new TextDecoder().decode(bytes)) as { token?: string }).token;
  } catch {
    return undefined;
  }
}
