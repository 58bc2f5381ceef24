import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { GateFunction } from './gate-function.js';
import { TargetDeadLetterQueue } from './target-dead-letter-queue.js';

export interface ReconcileFunctionProps {
  readonly functionName: string;
  readonly logRetention: RetentionDays;
  /** The catch-up run, for a registry event S3 or Lambda lost. @default Duration.hours(1) */
  readonly interval?: Duration;
  /** @default 256 */
  readonly memorySize?: number;
  /** @default Duration.minutes(2) */
  readonly timeout?: Duration;
}

/**
 * The subscription reconciler (lambdas/reconcile/handler.ts): subscribes the addresses the
 * registered contracts name, filtered to their contracts, on every pointer write (see
 * GateBucket.notifyRegistry) and on a schedule. One run at a time: runs compare and then write
 * one record, and a second run queued by Lambda sees what the first did. An event that could
 * not start a run, or whose run failed every retry (S3 invokes it asynchronously), lands in
 * `deadLetterQueue`; the next pointer write or the hourly run catches up on it.
 */
export class ReconcileFunction extends GateFunction {
  readonly schedule: Rule;
  /** Schedule events and registry notifications that could not be handled. */
  readonly deadLetterQueue: TargetDeadLetterQueue;

  constructor(scope: Construct, id: string, props: ReconcileFunctionProps) {
    super(scope, id, {
      functionName: props.functionName,
      description: 'contract-gate: subscribes the owners and consumers of registered contracts to their notices',
      entry: 'lambdas/reconcile/handler.ts',
      memorySize: props.memorySize ?? 256,
      timeout: props.timeout ?? Duration.minutes(2),
      logRetention: props.logRetention,
      bundleContracts: false,
      reservedConcurrentExecutions: 1,
    });
    // Lambda's own defaults for an asynchronous invocation, written down, plus somewhere to fail to.
    this.deadLetterQueue = new TargetDeadLetterQueue(this, 'DeadLetters', { retryAttempts: 2, maxEventAge: Duration.hours(6) });
    this.function.configureAsyncInvoke({ ...this.deadLetterQueue.delivery, onFailure: new SqsDestination(this.deadLetterQueue.queue) });
    this.schedule = new Rule(this, 'Schedule', {
      ruleName: props.functionName,
      description: `Runs ${props.functionName}: catches up on any registry event that was lost`,
      schedule: Schedule.rate(props.interval ?? Duration.hours(1)),
      targets: [new LambdaFunction(this.function, this.deadLetterQueue.targetProps)],
    });
  }
}
