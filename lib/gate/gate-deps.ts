import type { Notifier } from '../notify/notifier.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { ContractSource } from './contract-registry.js';
import type { CheckRunner, DecideContext } from './decide.js';
import type { Decision } from './decision.js';
import type { GateLayout } from './gate-layout.js';
import type { LeaseSettings } from './partition-lease.js';
import type { Drop } from './read-drop.js';

/** What the gate runs on (process-marker.ts); settling a linked pair and deciding a drop need the same. */
export interface GateDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  /** Asked once per drop decided, so a contract registered since is enforced on its first drop. */
  readonly contracts: ContractSource;
  /** Epoch milliseconds; injected so tests and replays pin the time. */
  readonly clock: () => number;
  readonly layout?: GateLayout;
  /** Epoch ms by which the handler must have stopped (Lambda's remaining time); none: no limit. */
  readonly deadline?: number;
  /** Decides in place of `decide`, or hands the drop on (see Decider). @default decide */
  readonly decider?: Decider;
  /** How `decide` runs the checks. @default in this thread */
  readonly checks?: CheckRunner;
  /** @default a lease that lasts until the deadline (plus a minute), or 15 minutes without one */
  readonly lease?: LeaseSettings;
}

/**
 * Decides a drop, or hands it on and returns undefined: a partition too big for one handler goes
 * to the fan-out, which records the decision later through `settleDrop`.
 */
export type Decider = (context: DecideContext, drop: Drop) => Promise<Decision | undefined>;
