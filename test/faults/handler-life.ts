import { CALL_MARGIN_MS } from '../../lib/gate/deadline-store.js';
import { NOW } from '../fixtures/gate-fixture.js';

/**
 * One handler invocation as the harness sees it: whether it has died, how many requests and
 * mutating requests it sent, and a virtual clock that moves a fixed tick per request, so a
 * deadline expires part way through a run at a point the seed chooses, not the machine's speed.
 */
export class HandlerLife {
  dead = false;
  requests = 0;
  mutations = 0;
  /** Faults injected into this handler's requests (crashes excluded). */
  injected = 0;
  /** Requests started with less than the gate's call margin left: a Lambda could kill those mid-write. */
  lateStarts = 0;
  private elapsedMs = 0;

  constructor(
    readonly id: string,
    readonly deadline?: number,
    private readonly tickMs = 0,
    /** When the invocation starts on the virtual clock: a redelivery comes some time after the first. */
    private readonly startMs = 0,
  ) {}

  readonly clock = (): number => NOW + this.startMs + this.elapsedMs;

  startRequest(mutating: boolean): void {
    this.requests += 1;
    if (mutating) this.mutations += 1;
    if (this.deadline !== undefined && this.deadline - this.clock() < CALL_MARGIN_MS) this.lateStarts += 1;
    this.elapsedMs += this.tickMs;
  }

  /** True once the virtual clock has passed the point where the gate must stop starting calls. */
  get pastDeadline(): boolean {
    return this.deadline !== undefined && this.deadline - this.clock() < CALL_MARGIN_MS;
  }
}
