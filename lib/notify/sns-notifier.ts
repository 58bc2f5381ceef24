import { PublishCommand, SNSClient, type MessageAttributeValue } from '@aws-sdk/client-sns';
import { createHash } from 'node:crypto';
import { describeError, GateError } from '../errors.js';
import type { Notice, NoticeAttributes, Notifier } from './notifier.js';

/** SNS rejects a Subject longer than this, so a long one is cut rather than losing the notice. */
const MAX_SUBJECT_CHARACTERS = 100;

const ATTRIBUTE_NAMES = ['contract', 'version', 'owner', 'outcome', 'severity', 'partition', 'drop', 'attempt'] as const satisfies readonly (keyof NoticeAttributes)[];

/**
 * Publishes each notice to one SNS topic, its attributes as message attributes so subscribers
 * filter with a filter policy. The default client reads the standard AWS environment
 * (region, credentials, `AWS_ENDPOINT_URL_SNS`), as any AWS tool does.
 */
export function snsNotifier(options: { topicArn: string; client?: SNSClient }): Notifier {
  const { topicArn } = options;
  const client = options.client ?? new SNSClient({});
  return {
    async notify(notice: Notice): Promise<void> {
      const subject = snsSubject(notice.subject);
      const command = new PublishCommand({
        TopicArn: topicArn,
        // An empty Subject is invalid; without one, e-mail subscribers get the SNS default.
        ...(subject === '' ? {} : { Subject: subject }),
        Message: notice.body,
        MessageAttributes: { ...messageAttributes(notice.attributes), ...(notice.id ? { notice_id: { DataType: 'String', StringValue: notice.id } } : {}) },
        // A FIFO topic drops a repeat of the same id within five minutes; a standard one has the attribute.
        ...(topicArn.endsWith('.fifo') ? { MessageGroupId: notice.attributes.contract, MessageDeduplicationId: fifoId(notice) } : {}),
      });
      try {
        await client.send(command);
      } catch (error) {
        // The gate retries on this throw, so it must never be swallowed.
        throw new GateError('notify_failed', `cannot publish to SNS topic ${topicArn}: ${describeError(error)}`, {
          cause: error,
          context: { topicArn, contract: notice.attributes.contract, outcome: notice.attributes.outcome },
        });
      }
    },
  };
}

/** One line of at most 100 characters: SNS refuses line breaks and control characters. */
export function snsSubject(subject: string): string {
  const line = subject.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').replace(/\s+/g, ' ').trim();
  // Counted in code points so a cut never splits a surrogate pair.
  const characters = Array.from(line);
  if (characters.length <= MAX_SUBJECT_CHARACTERS) return line;
  return `${characters.slice(0, MAX_SUBJECT_CHARACTERS - 1).join('').trimEnd()}…`;
}

/** SNS takes at most 128 characters from a limited set; a claim key is longer, so it is hashed. */
function fifoId(notice: Notice): string {
  return createHash('sha256').update(notice.id ?? `${notice.subject}\n${notice.body}`).digest('hex');
}

function messageAttributes(attributes: NoticeAttributes): Record<string, MessageAttributeValue> {
  const result: Record<string, MessageAttributeValue> = {};
  for (const name of ATTRIBUTE_NAMES) {
    const value = attributes[name];
    // SNS rejects an empty attribute value, which would fail the whole notice.
    if (value !== undefined && value !== '') result[name] = { DataType: 'String', StringValue: value };
  }
  return result;
}
