import {
  ListSubscriptionsByTopicCommand,
  SetSubscriptionAttributesCommand,
  SNSClient,
  SubscribeCommand,
  UnsubscribeCommand,
} from '@aws-sdk/client-sns';
import { describeError, GateError } from '../errors.js';
import type { FilterPolicy, ListedSubscription, TopicSubscriptions } from './topic-subscriptions.js';

/**
 * The subscription port over one SNS topic. The default client reads the standard AWS
 * environment (region, credentials, `AWS_ENDPOINT_URL_SNS`), as the notifier's does.
 */
export function snsTopicSubscriptions(options: { topicArn: string; client?: SNSClient }): TopicSubscriptions {
  const { topicArn } = options;
  const client = options.client ?? new SNSClient({});
  const send = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw toGateError(what, topicArn, error);
    }
  };
  return {
    list: () => send('list the subscriptions of', () => listAll(client, topicArn)),
    subscribe: (email, filterPolicy) => send(`subscribe ${email} to`, async () => {
      const out = await client.send(new SubscribeCommand({
        TopicArn: topicArn,
        Protocol: 'email',
        Endpoint: email,
        Attributes: { FilterPolicy: policyText(filterPolicy) },
        // Without it a subscription awaiting confirmation comes back as "pending confirmation",
        // and could be neither narrowed nor removed later.
        ReturnSubscriptionArn: true,
      }));
      if (!out.SubscriptionArn?.startsWith('arn:')) throw new GateError('notify_failed', `SNS returned no subscription ARN for ${email} (got ${String(out.SubscriptionArn)})`);
      return out.SubscriptionArn;
    }),
    setFilterPolicy: (arn, filterPolicy) => send(`set the filter policy of ${arn} on`, async () => {
      await client.send(new SetSubscriptionAttributesCommand({ SubscriptionArn: arn, AttributeName: 'FilterPolicy', AttributeValue: policyText(filterPolicy) }));
    }),
    unsubscribe: (arn) => send(`unsubscribe ${arn} from`, async () => {
      await client.send(new UnsubscribeCommand({ SubscriptionArn: arn }));
    }),
  };
}

async function listAll(client: SNSClient, topicArn: string): Promise<ListedSubscription[]> {
  const found: ListedSubscription[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListSubscriptionsByTopicCommand({ TopicArn: topicArn, NextToken: token }));
    for (const item of page.Subscriptions ?? []) {
      const arn = item.SubscriptionArn ?? '';
      // SNS lists a subscription being removed as "Deleted": it is going, whoever removes it.
      if (arn === 'Deleted' || item.Endpoint === undefined) continue;
      // A pending one is listed as "PendingConfirmation", without its ARN.
      found.push({ protocol: item.Protocol ?? '', endpoint: item.Endpoint, ...(arn.startsWith('arn:') ? { arn } : {}) });
    }
    token = page.NextToken || undefined;
  } while (token);
  return found;
}

// Keys in a fixed order, so the text SNS compares on a repeated Subscribe is the same each time.
const policyText = (policy: FilterPolicy): string => JSON.stringify({ contract: policy.contract });

function toGateError(what: string, topicArn: string, error: unknown): GateError {
  if (error instanceof GateError) return error;
  const { name, $metadata } = (error ?? {}) as { name?: string; $metadata?: { httpStatusCode?: number } };
  const context = { topicArn, snsError: name ?? 'unknown' };
  if (name === 'NotFoundException' || name === 'NotFound' || $metadata?.httpStatusCode === 404) {
    return new GateError('not_found', `cannot ${what} SNS topic ${topicArn}: not found (${describeError(error)})`, { cause: error, context });
  }
  return new GateError('notify_failed', `cannot ${what} SNS topic ${topicArn}: ${describeError(error)}`, { cause: error, context });
}
