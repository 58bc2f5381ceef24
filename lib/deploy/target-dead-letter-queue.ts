import { Duration, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';

export interface TargetDeliveryProps {
  /** Deliveries EventBridge (or Lambda, for an asynchronous invocation) tries again before giving up. */
  readonly retryAttempts: number;
  /** How long an undelivered event is tried again. */
  readonly maxEventAge: Duration;
}

/**
 * Where an EventBridge target's events go when they could not be delivered after their retries
 * (the target was throttled, deleted, or refused the call), rather than nowhere: an SQS queue
 * kept 14 days, which an alarm watches. `targetProps` is what an aws-events-targets target takes.
 */
export class TargetDeadLetterQueue extends Construct {
  readonly queue: Queue;
  readonly delivery: TargetDeliveryProps;

  constructor(scope: Construct, id: string, delivery: TargetDeliveryProps) {
    super(scope, id);
    this.delivery = delivery;
    this.queue = new Queue(this, 'Queue', {
      // SQS-managed keys: EventBridge and Lambda deliver to them without a key policy to write.
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.queue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'It is itself a dead-letter queue, of an EventBridge target (and a Lambda asynchronous invocation): the last stop, watched by an alarm.',
    });
  }

  /** The dead-letter and retry settings of an aws-events-targets target. */
  get targetProps(): { deadLetterQueue: Queue; retryAttempts: number; maxEventAge: Duration } {
    return { deadLetterQueue: this.queue, ...this.delivery };
  }
}
