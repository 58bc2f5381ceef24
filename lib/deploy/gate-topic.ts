import { ArnFormat, Stack } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SubscriptionFilter, Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import { acknowledgeWildcardAction } from './nag-acknowledgements.js';
import type { EmailSubscriptionPlan } from '../subscriptions/email-recipients.js';

export interface GateTopicProps {
  readonly topicName: string;
  /** The sender name in e-mails. @default the topic name */
  readonly displayName?: string;
}

/**
 * The one topic every notice and alarm goes to, encrypted with a key of its own. Subscribers
 * filter on the message attributes the notifier sets (`contract`, `outcome`, `severity`, ...).
 */
export class GateTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  /** For alarms: CloudWatch may publish to the encrypted topic (see the key policy). */
  readonly alarmAction: SnsAction;

  constructor(scope: Construct, id: string, props: GateTopicProps) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: `Encrypts the ${props.topicName} SNS topic`,
      alias: `alias/${props.topicName}`,
      enableKeyRotation: true,
    });
    // CloudWatch alarms publish as the service, which needs the key; without this an alarm on an
    // encrypted topic fails silently.
    this.key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        // Only for this account's alarms: without it, any account's CloudWatch could use the key.
        conditions: {
          StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
          ArnLike: { 'aws:SourceArn': Stack.of(this).formatArn({ service: 'cloudwatch', resource: 'alarm', resourceName: '*', arnFormat: ArnFormat.COLON_RESOURCE_NAME }) },
        },
      }),
    );
    this.topic = new Topic(this, 'Topic', {
      topicName: props.topicName,
      displayName: props.displayName ?? props.topicName,
      masterKey: this.key,
      enforceSSL: true,
    });
    this.alarmAction = new SnsAction(this.topic);
  }

  /** E-mail subscriptions; a plan with `contracts` gets only those contracts' notices. */
  subscribeEmails(plans: readonly EmailSubscriptionPlan[]): void {
    for (const plan of plans) {
      const filterPolicy = plan.contracts ? { contract: SubscriptionFilter.stringFilter({ allowlist: [...plan.contracts] }) } : undefined;
      this.topic.addSubscription(new EmailSubscription(plan.email, filterPolicy ? { filterPolicy } : {}));
    }
  }

  /**
   * What the subscription reconciler needs, on this topic only, and GATE_TOPIC_ARN. No key
   * access: it never publishes. SNS authorizes subscription calls against the topic's ARN.
   */
  grantManageSubscriptions(fn: LambdaFunction): void {
    fn.addToRolePolicy(new PolicyStatement({
      actions: ['sns:ListSubscriptionsByTopic', 'sns:Subscribe', 'sns:SetSubscriptionAttributes', 'sns:Unsubscribe'],
      resources: [this.topic.topicArn],
    }));
    fn.addEnvironment('GATE_TOPIC_ARN', this.topic.topicArn);
  }

  /** sns:Publish on this topic, the key to encrypt with, and GATE_TOPIC_ARN. */
  grantPublish(fn: LambdaFunction): void {
    this.topic.grantPublish(fn);
    fn.addEnvironment('GATE_TOPIC_ARN', this.topic.topicArn);
    acknowledgeWildcardAction(fn.role ?? fn, 'kms:GenerateDataKey*', 'Publishing to a KMS-encrypted SNS topic needs kms:GenerateDataKey* (SNS picks the variant), scoped to this topic\'s key only.');
  }
}
