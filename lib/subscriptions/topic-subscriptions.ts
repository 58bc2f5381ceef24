/**
 * The subscription port: what the reconciler needs from one SNS topic, and nothing more.
 * Adapter: sns-topic-subscriptions.ts. Failures throw GateError: `not_found` when the
 * subscription does not exist (any more), `notify_failed` for anything else SNS refuses.
 */
export interface TopicSubscriptions {
  /** Every subscription of the topic, however many pages that takes. */
  list(): Promise<ListedSubscription[]>;
  /** An e-mail subscription with this filter policy; its ARN, even while it awaits confirmation. */
  subscribe(email: string, filterPolicy: FilterPolicy): Promise<string>;
  setFilterPolicy(subscriptionArn: string, filterPolicy: FilterPolicy): Promise<void>;
  unsubscribe(subscriptionArn: string): Promise<void>;
}

export interface ListedSubscription {
  readonly protocol: string;
  readonly endpoint: string;
  /** Undefined while the subscription awaits confirmation: SNS lists it as `PendingConfirmation`. */
  readonly arn?: string;
}

/** The only filter the reconciler sets: the notices of these contracts (the `contract` message attribute). */
export interface FilterPolicy {
  readonly contract: readonly string[];
}

export function contractFilter(contracts: readonly string[]): FilterPolicy {
  return { contract: [...contracts] };
}
