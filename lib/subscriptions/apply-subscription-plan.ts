import { describeError, GateError } from '../errors.js';
import type { SubscriptionAction, SubscriptionPlan } from './plan-subscriptions.js';
import type { ManagedSubscription } from './subscription-state.js';
import { contractFilter, type TopicSubscriptions } from './topic-subscriptions.js';

/**
 * - done: SNS did it.
 * - gone: the subscription no longer exists (the owner unsubscribed, a confirmation lapsed).
 * - deferred: SNS refused a change to a subscription awaiting confirmation; the next run tries again.
 * - failed: anything else; the run reports it and fails after recording what did succeed.
 */
export type ActionOutcome = 'done' | 'gone' | 'deferred' | 'failed';

export interface ActionResult {
  readonly kind: SubscriptionAction['kind'];
  readonly email: string;
  readonly contracts: readonly string[];
  readonly outcome: ActionOutcome;
  readonly error?: string;
}

/**
 * Carries out a plan one action at a time, each failure on its own, and returns the managed set
 * as it now is: what the plan kept, plus every subscription as the outcome left it.
 */
export async function applySubscriptionPlan(topic: TopicSubscriptions, plan: SubscriptionPlan): Promise<{ managed: ManagedSubscription[]; results: ActionResult[] }> {
  const managed: ManagedSubscription[] = [...plan.kept];
  const results: ActionResult[] = [];
  for (const action of plan.actions) {
    const { entry, result } = await apply(topic, action);
    if (entry) managed.push(entry);
    results.push(result);
  }
  return { managed, results };
}

async function apply(topic: TopicSubscriptions, action: SubscriptionAction): Promise<{ entry?: ManagedSubscription; result: ActionResult }> {
  const email = action.kind === 'subscribe' ? action.email : action.managed.email;
  const contracts = action.kind === 'unsubscribe' ? action.managed.contracts : action.contracts;
  const report = (outcome: ActionOutcome, error?: unknown): ActionResult => ({ kind: action.kind, email, contracts, outcome, ...(error === undefined ? {} : { error: describeError(error) }) });
  try {
    switch (action.kind) {
      case 'subscribe':
        return { entry: { email, arn: await topic.subscribe(email, contractFilter(contracts)), contracts }, result: report('done') };
      case 'set-filter':
        await topic.setFilterPolicy(action.managed.arn, contractFilter(contracts));
        return { entry: { ...action.managed, contracts }, result: report('done') };
      case 'unsubscribe':
        await topic.unsubscribe(action.managed.arn);
        return { result: report('done') };
    }
  } catch (error) {
    return failed(action, error, report);
  }
}

function failed(action: SubscriptionAction, error: unknown, report: (outcome: ActionOutcome, error?: unknown) => ActionResult): { entry?: ManagedSubscription; result: ActionResult } {
  const gone = error instanceof GateError && error.code === 'not_found';
  if (action.kind === 'subscribe') return { ...(action.managed ? { entry: action.managed } : {}), result: report('failed', error) };
  // Gone: nothing left to remove; a narrowed filter is recorded, so a contract added later counts as new.
  if (gone) return action.kind === 'set-filter' ? { entry: { ...action.managed, contracts: action.contracts }, result: report('gone') } : { result: report('gone') };
  // SNS refuses to delete a subscription awaiting confirmation (it drops it unconfirmed after 48
  // hours): it stays in the record, and a later run removes it once confirmed, or finds it gone.
  return { entry: action.managed, result: report(action.pending ? 'deferred' : 'failed', error) };
}
