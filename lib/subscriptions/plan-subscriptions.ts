import { normaliseEmail } from './email-recipients.js';
import type { ManagedSubscription } from './subscription-state.js';
import type { ListedSubscription } from './topic-subscriptions.js';

/** One address and the contracts whose notices it should get (planEmailSubscriptions, no alert addresses). */
export interface DesiredSubscription {
  readonly email: string;
  readonly contracts: readonly string[];
}

export interface SubscriptionPlanInput {
  readonly desired: readonly DesiredSubscription[];
  /** The topic's subscriptions as SNS lists them. */
  readonly listed: readonly ListedSubscription[];
  /** What the reconciler made before (subscription-state.ts); nothing else is ever changed. */
  readonly managed: readonly ManagedSubscription[];
  /**
   * False when part of the registry could not be read: the desired set may be missing a
   * contract, so nobody loses a subscription or a contract of their filter on this run.
   */
  readonly removals: boolean;
}

export type SubscriptionAction =
  /** `managed`: the earlier subscription of the address, kept if this one fails. */
  | { readonly kind: 'subscribe'; readonly email: string; readonly contracts: readonly string[]; readonly managed?: ManagedSubscription }
  | { readonly kind: 'set-filter'; readonly managed: ManagedSubscription; readonly contracts: readonly string[]; readonly pending: boolean }
  | { readonly kind: 'unsubscribe'; readonly managed: ManagedSubscription; readonly pending: boolean };

export interface SubscriptionPlan {
  readonly actions: readonly SubscriptionAction[];
  /** Managed subscriptions no action touches: the next record holds them as they are. */
  readonly kept: readonly ManagedSubscription[];
  /** Addresses a contract names that someone else subscribed (by hand, or an alert address): left alone. */
  readonly unmanaged: readonly string[];
}

/**
 * What to change on the topic so that every address the registered contracts name has one
 * subscription filtered to its contracts, touching only subscriptions the reconciler made.
 * Addresses are compared as normaliseEmail spells them; only e-mail subscriptions count.
 */
export function planSubscriptions(input: SubscriptionPlanInput): SubscriptionPlan {
  const listed = new Map(input.listed.filter((s) => s.protocol === 'email').map((s) => [normaliseEmail(s.endpoint), s]));
  // Ours no longer: the address is subscribed under another ARN (ours lapsed, someone subscribed it by hand).
  const managed = new Map(input.managed.filter((m) => !replaced(m, listed)).map((m) => [normaliseEmail(m.email), m]));
  const actions: SubscriptionAction[] = [];
  const kept: ManagedSubscription[] = [];
  const unmanaged: string[] = [];
  for (const wanted of input.desired) {
    const key = normaliseEmail(wanted.email);
    const mine = managed.get(key);
    managed.delete(key);
    if (mine) planManaged(mine, wanted, listed.get(key), input.removals, actions, kept);
    else if (listed.has(key)) unmanaged.push(wanted.email);
    else actions.push({ kind: 'subscribe', email: wanted.email, contracts: wanted.contracts });
  }
  // Managed addresses no contract names any more.
  for (const [key, mine] of managed) {
    if (input.removals) actions.push({ kind: 'unsubscribe', managed: mine, pending: isPending(listed.get(key)) });
    else kept.push(mine);
  }
  return { actions, kept, unmanaged };
}

function planManaged(mine: ManagedSubscription, wanted: DesiredSubscription, listed: ListedSubscription | undefined, removals: boolean, actions: SubscriptionAction[], kept: ManagedSubscription[]): void {
  const contracts = removals ? wanted.contracts : union(mine.contracts, wanted.contracts);
  if (sameList(contracts, mine.contracts)) {
    // Also when it is gone from the topic: the owner unsubscribed, or let the confirmation
    // lapse. Not asked again every hour; asked again when a contract newly names them.
    kept.push(mine);
  } else if (!listed && contracts.some((c) => !mine.contracts.includes(c))) {
    actions.push({ kind: 'subscribe', email: wanted.email, contracts, managed: mine });
  } else {
    // Listed, or gone and only narrowed (a missing subscription then just records the new set).
    actions.push({ kind: 'set-filter', managed: mine, contracts, pending: isPending(listed) });
  }
}

function replaced(mine: ManagedSubscription, listed: ReadonlyMap<string, ListedSubscription>): boolean {
  const now = listed.get(normaliseEmail(mine.email));
  return now?.arn !== undefined && now.arn !== mine.arn;
}

const isPending = (listed: ListedSubscription | undefined): boolean => listed !== undefined && listed.arn === undefined;

const union = (a: readonly string[], b: readonly string[]): string[] => [...new Set([...a, ...b])].sort();

const sameList = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((item, i) => item === b[i]);
