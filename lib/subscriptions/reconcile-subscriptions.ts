import { readRegistry } from '../registry/read-registry.js';
import type { RegistryReadOptions } from '../registry/registry-objects.js';
import type { ObjectStore } from '../storage/object-store.js';
import { applySubscriptionPlan, type ActionResult } from './apply-subscription-plan.js';
import { planEmailSubscriptions } from './email-recipients.js';
import { planSubscriptions, type DesiredSubscription } from './plan-subscriptions.js';
import { readSubscriptionState, saveSubscriptionState, SUBSCRIPTION_STATE_FILE } from './subscription-state.js';
import type { TopicSubscriptions } from './topic-subscriptions.js';

export interface ReconcileDeps {
  /** The gate's bucket: the registry and the reconciler's record. */
  readonly store: ObjectStore;
  readonly topic: TopicSubscriptions;
  /** Names the topic in the record, so a record of another topic manages nothing here. */
  readonly topicArn: string;
  /** @default `_contracts/` */
  readonly registryPrefix?: string;
  /** The gate's state prefix; the record is `<statePrefix>subscriptions.json`. */
  readonly statePrefix: string;
  readonly registryOptions?: Omit<RegistryReadOptions, 'prefix'>;
  /** Epoch milliseconds. */
  readonly now: number;
}

export interface ReconcileReport {
  /** Registered contracts read (one per dataset and major). */
  readonly contracts: number;
  /** Registered files that did not load; while there are any, nothing is removed. */
  readonly problems: readonly string[];
  readonly results: readonly ActionResult[];
  /** Addresses a contract names that someone else subscribed; left alone. */
  readonly unmanaged: readonly string[];
  readonly stateWritten: boolean;
}

/**
 * One full comparison of the registry with the topic: every address a registered contract
 * names gets one e-mail subscription filtered to its contracts, and what the reconciler made
 * for an address no contract names any more is removed. A run changes nothing when nothing
 * changed, so repeated or reordered triggers are harmless.
 */
export async function reconcileSubscriptions(deps: ReconcileDeps): Promise<ReconcileReport> {
  const stateKey = `${deps.statePrefix}${SUBSCRIPTION_STATE_FILE}`;
  const registry = await readRegistry(deps.store, { ...deps.registryOptions, ...(deps.registryPrefix ? { prefix: deps.registryPrefix } : {}) });
  const desired: DesiredSubscription[] = planEmailSubscriptions(registry.entries.map((entry) => entry.contract), []).map((p) => ({ email: p.email, contracts: p.contracts ?? [] }));
  const state = await readSubscriptionState(deps.store, stateKey, deps.topicArn);
  const listed = await deps.topic.list();
  const plan = planSubscriptions({ desired, listed, managed: state.managed, removals: registry.problems.length === 0 });
  const { managed, results } = await applySubscriptionPlan(deps.topic, plan);
  const stateWritten = await saveSubscriptionState(deps.store, stateKey, deps.topicArn, state, managed, deps.now);
  return { contracts: registry.entries.length, problems: registry.problems, results, unmanaged: plan.unmanaged, stateWritten };
}
