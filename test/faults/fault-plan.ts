/**
 * What goes wrong for one handler. Probabilities are per request attempt (an SDK retry is a new
 * attempt and draws again), so a retried 503 usually succeeds and sometimes runs out of attempts.
 */
export interface FaultPlan {
  /** Die just before the Nth mutating request, or just after it was applied (the response is lost). */
  readonly crash?: { readonly mode: 'before' | 'after'; readonly at: number };
  /** Die around any mutating request with this probability, before or after at random. */
  readonly crashChance?: number;
  /** 503 SlowDown: not applied; the SDK retries it as throttling. */
  readonly slowDown?: number;
  /** 500 InternalError: not applied; the SDK retries it as a transient error. */
  readonly internalError?: number;
  /** Applied, then the connection resets before the response: the SDK retries a write that happened. */
  readonly resetAfterApply?: number;
  /** 409 ConditionalRequestConflict on a conditional write: not applied, not retried by the SDK. */
  readonly conflict?: number;
  /** Delay a response by up to slowMs with probability slowChance. */
  readonly slowChance?: number;
  readonly slowMs?: number;
}

export const NO_FAULTS: FaultPlan = {};
