import { Duration } from 'aws-cdk-lib';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { GateFunction } from './gate-function.js';

export interface ValidateFunctionProps {
  readonly functionName: string;
  /** The ready queue; its visibility timeout should be six times `timeout`. */
  readonly queue: IQueue;
  readonly logRetention: RetentionDays;
  /** @default 1769 (one full vCPU) */
  readonly memorySize?: number;
  /** @default Duration.minutes(5) */
  readonly timeout?: Duration;
  /** Concurrent invocations the event source starts at most. @default 10 */
  readonly maxConcurrency?: number;
  /** @default 1 */
  readonly batchSize?: number;
  /** Copies `contracts/` into the asset; off when the function reads the registry. @default true */
  readonly bundleContracts?: boolean;
  /** The contract files to bundle (their paths). @default the `*.yaml` and `*.yml` in `<projectRoot>/contracts` */
  readonly contractFiles?: readonly string[];
}

/** The gate itself (lambdas/validate/handler.ts), fed by the ready queue. */
export class ValidateFunction extends GateFunction {
  constructor(scope: Construct, id: string, props: ValidateFunctionProps) {
    super(scope, id, {
      functionName: props.functionName,
      description: 'contract-gate: validates a dropped partition, then publishes or quarantines it',
      entry: 'lambdas/validate/handler.ts',
      memorySize: props.memorySize ?? 1769,
      timeout: props.timeout ?? Duration.minutes(5),
      logRetention: props.logRetention,
      bundleContracts: props.bundleContracts ?? true,
      ...(props.contractFiles ? { contractFiles: props.contractFiles } : {}),
      sliceWorker: true,
    });
    this.function.addEventSource(
      new SqsEventSource(props.queue, {
        // One marker is one whole-partition validation that may take most of the timeout, and a
        // timeout fails every message of its batch: small batches keep a slow partition from
        // dragging its neighbours back into the queue.
        batchSize: props.batchSize ?? 1,
        reportBatchItemFailures: true,
        // Bounds the S3 and SNS request rate and the memory bill a burst of drops can cause.
        maxConcurrency: props.maxConcurrency ?? 10,
      }),
    );
  }
}
