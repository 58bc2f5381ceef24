import type { Decision } from '../lib/gate/decision.js';
import { attemptId } from '../lib/gate/decision.js';
import { markerKey, parseMarkerKey, type DropAddress, type GateLayout } from '../lib/gate/gate-layout.js';
import { resultMetrics, type Observed } from '../lib/gate/outcome-metrics.js';
import type { FanoutRun } from '../lib/fanout/fanout-layout.js';
import { dropLogger, publishContractMetrics } from './observability.js';
import type { RecordCorrelation } from './observability-correlation.js';

/**
 * The keys every line about a drop carries, so one Logs Insights filter on any of them finds the
 * drop's whole story across the validate function and the fan-out steps (`drop` is the tag the
 * notice's `drop` attribute and the decision key carry).
 */
export interface DropKeys {
  readonly dataset?: string;
  readonly major?: number;
  readonly partition?: string;
  readonly marker_key: string;
  readonly drop?: string;
  readonly attempt?: string;
}

export function dropKeys(layout: GateLayout, key: string, decision?: Pick<Decision, 'address' | 'tag' | 'attempt'>): DropKeys {
  const address: DropAddress | undefined = decision?.address ?? parseMarkerKey(layout, key);
  return {
    ...(address ? { dataset: address.dataset, major: address.major, partition: address.partition } : {}),
    marker_key: key,
    ...(decision ? { drop: decision.tag, attempt: decision.attempt } : {}),
  };
}

/** A fan-out run's drop: its attempt is fixed by the run (attemptId(run.now, tag)), before it is decided. */
export function runKeys(layout: GateLayout, run: FanoutRun): DropKeys {
  const { address, tag } = run;
  return { dataset: address.dataset, major: address.major, partition: address.partition, marker_key: markerKey(layout, address), drop: tag, attempt: attemptId(run.now, tag) };
}

/** What a handler logs of a verdict: a decision's attempt and summary, or why there was none. */
export function describeOutcome(outcome: { readonly status: string; readonly decision: Decision } | { readonly status: string; readonly reason: string }): { status: string; attempt: string; summary: string } | { status: string; reason: string } {
  if ('decision' in outcome) return { status: outcome.status, attempt: outcome.decision.attempt, summary: outcome.decision.report.summary };
  return { status: outcome.status, reason: outcome.reason };
}

type Result = { readonly status: string; readonly decision: Decision } | { readonly status: string; readonly reason: string };

/** The drop's keys for a result: those of its decision when it has one. */
export function resultKeys(layout: GateLayout, key: string, result: Result): DropKeys {
  return dropKeys(layout, key, 'decision' in result ? result.decision : undefined);
}

/**
 * One drop's result: one log line with the drop's keys and its record's correlation id, and its
 * metrics if this invocation carried the decision out.
 */
export function reportDrop(result: Result, context: { readonly keys: DropKeys; readonly observe: (decision: Decision) => Observed; readonly correlation?: RecordCorrelation | undefined; readonly message: string }): void {
  dropLogger({ ...context.keys, ...correlationKeys(context.correlation) }).info(context.message, describeOutcome(result));
  publishContractMetrics(resultMetrics(result, context.observe));
}

/** A marker that failed; the key may not even be a marker's, so the drop keys are what can be read off it. */
export function reportFailure(failure: { readonly key: string; readonly messageId?: string; readonly error: string }, context: { readonly layout: GateLayout; readonly correlation?: RecordCorrelation | undefined }): void {
  dropLogger({ ...dropKeys(context.layout, failure.key), ...correlationKeys(context.correlation) }).error('marker failed; it will be delivered again', { ...failure });
}

function correlationKeys(record: RecordCorrelation | undefined): Record<string, string> {
  if (!record) return {};
  return { correlation_id: record.correlationId, ...(record.sqsMessageId ? { sqs_message_id: record.sqsMessageId } : {}), ...(record.s3RequestId ? { s3_request_id: record.s3RequestId } : {}) };
}
