import { Duration } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface ReadyQueueProps {
  readonly queueName: string;
  /** At least the consuming function's timeout: a message received again sooner would run twice at once. */
  readonly visibilityTimeout: Duration;
  /** Receives before a marker's message goes to the dead-letter queue. @default 5 */
  readonly maxReceiveCount?: number;
}

/**
 * The completion markers' object-created events, waiting for the validate function. A marker
 * that fails every delivery lands in the dead-letter queue, which raises an alarm; its staged
 * files stay in staging, so a redrive after a fix runs the gate again.
 */
export class ReadyQueue extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: ReadyQueueProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'DeadLetterQueue', {
      queueName: `${props.queueName}-dlq`,
      // SQS-managed keys: S3 can deliver to them, which it cannot to a queue under the AWS-managed SQS KMS key.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    this.queue = new Queue(this, 'Queue', {
      queueName: props.queueName,
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: props.visibilityTimeout,
      deadLetterQueue: { queue: this.deadLetterQueue, maxReceiveCount: props.maxReceiveCount ?? 5 },
    });
  }
}
