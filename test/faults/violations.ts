/** The invariants every run is checked against; each is a column of the printed table. */
export const INVARIANTS = {
  'one-outcome': 'exactly one outcome per drop: published or quarantined, never both, nothing half done',
  'right-outcome': 'a good drop is published and a bad one quarantined, whatever failed on the way',
  'notices<=1': 'at most one notification per drop (one notice id; a resend under the same id is deduplicated)',
  // Reported, not a gate invariant: a handler dying between its claim and the send loses the
  // notice by design (at most once; see lib/gate/notify-once.ts).
  'notice-sent': 'the owner got the notification',
  'bytes-kept': 'every staged byte is in staging, published or quarantine, at every observed moment',
  reader: 'a reader of _SUCCESS never sees a listed file missing, resized or changed',
  'clean-failure': 'a handler completes, or fails with a retryable error caused by a fault or its deadline',
  converged: 'redelivery (bounded) carries the drop out: marker gone, one outcome',
  // The local endpoint's, not the gate's: S3 makes a write visible whole, and so must it.
  'torn-read': 'the local endpoint never shows an object half written (a partial body or size, an ETag of "")',
} as const;

export type Invariant = keyof typeof INVARIANTS;

/**
 * What the verdict (exit code, test assertions) rests on: every invariant but the notice that
 * at-most-once delivery may lose. `torn-read` is the local endpoint's (written aside and renamed
 * since lib/local/atomic-object-files.ts; emulator-atomic-write.test.ts races it directly).
 */
export const ENFORCED_INVARIANTS: readonly Invariant[] = (Object.keys(INVARIANTS) as Invariant[]).filter((invariant) => invariant !== 'notice-sent');

export function isEnforced(invariant: Invariant): boolean {
  return ENFORCED_INVARIANTS.includes(invariant);
}

export interface Violation {
  readonly invariant: Invariant;
  readonly detail: string;
}

/** What one run broke; a run with an empty list kept every invariant. */
export class Violations {
  readonly list: Violation[] = [];

  add(invariant: Invariant, detail: string): void {
    this.list.push({ invariant, detail });
  }

  count(invariant: Invariant): number {
    return this.list.filter((v) => v.invariant === invariant).length;
  }
}
