import { Duration } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { GateFunction } from './gate-function.js';
import { TargetDeadLetterQueue } from './target-dead-letter-queue.js';

export interface ProbeFunctionProps {
  readonly functionName: string;
  readonly logRetention: RetentionDays;
  /** @default Duration.minutes(5) */
  readonly interval?: Duration;
  /** @default 512 */
  readonly memorySize?: number;
  /** @default Duration.minutes(2) */
  readonly timeout?: Duration;
  /** Copies `contracts/` into the asset; off when the function reads the registry. @default true */
  readonly bundleContracts?: boolean;
  /** The contract files to bundle (their paths). @default the `*.yaml` and `*.yml` in `<projectRoot>/contracts` */
  readonly contractFiles?: readonly string[];
}

/**
 * The clock-SLA probe (lambdas/probe/handler.ts) on an EventBridge schedule. A run EventBridge
 * could not start is tried again for one interval, the next run's due then, and lands in
 * `deadLetterQueue` after.
 */
export class ProbeFunction extends GateFunction {
  readonly schedule: Rule;
  /** The schedule's events that could not start a run. */
  readonly deadLetterQueue: TargetDeadLetterQueue;

  constructor(scope: Construct, id: string, props: ProbeFunctionProps) {
    super(scope, id, {
      functionName: props.functionName,
      description: 'contract-gate: pages owners whose partitions miss their clock SLA',
      entry: 'lambdas/probe/handler.ts',
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.minutes(2),
      logRetention: props.logRetention,
      bundleContracts: props.bundleContracts ?? true,
      ...(props.contractFiles ? { contractFiles: props.contractFiles } : {}),
    });
    const interval = props.interval ?? Duration.minutes(5);
    // EventBridge keeps an event 24 hours at most.
    const maxEventAge = Duration.seconds(Math.min(interval.toSeconds(), Duration.hours(24).toSeconds()));
    this.deadLetterQueue = new TargetDeadLetterQueue(this, 'ScheduleDeadLetters', { retryAttempts: 3, maxEventAge });
    this.schedule = new Rule(this, 'Schedule', {
      ruleName: props.functionName,
      description: `Runs ${props.functionName}`,
      schedule: Schedule.rate(interval),
      targets: [new LambdaFunction(this.function, this.deadLetterQueue.targetProps)],
    });
  }
}
