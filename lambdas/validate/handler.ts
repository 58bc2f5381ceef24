import { join } from 'node:path';
import { handleStorageEvent } from '../../lib/gate/handle-event.js';
import type { GateDeps, MarkerResult } from '../../lib/gate/process-marker.js';
import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { loadContractDirectory } from '../../lib/storage/contract-directory.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { fanoutDeciderFrom } from '../fanout/fanout-environment.js';
import { layoutFrom, requiredEnv } from '../gate-environment.js';
import { logJson } from '../log-json.js';

/**
 * The validate Lambda: an adapter. It reads its configuration from the environment, builds the
 * S3 store and the SNS notifier, and hands every event to the gate.
 *
 * Environment: GATE_BUCKET, GATE_TOPIC_ARN, CONTRACTS_DIR (default: `contracts` beside the
 * handler), and optionally GATE_STAGING_PREFIX, GATE_PUBLISHED_PREFIX, GATE_QUARANTINE_PREFIX,
 * GATE_STATE_PREFIX, GATE_MARKER; GATE_FANOUT_MAX_FILES and GATE_FANOUT_MAX_BYTES hand bigger
 * partitions to the fan-out state machine (lambdas/fanout/).
 */
let ready: Promise<GateDeps & { bucket: string }> | undefined;

export async function handler(event: unknown, context?: { getRemainingTimeInMillis(): number }): Promise<{ batchItemFailures: { itemIdentifier: string }[] } | undefined> {
  const deps = await (ready ??= configure(process.env));
  // Stop cleanly between two storage calls rather than be killed in the middle of one.
  const deadline = context ? Date.now() + context.getRemainingTimeInMillis() : undefined;
  const outcome = await handleStorageEvent(deadline === undefined ? deps : { ...deps, deadline }, event);
  for (const result of outcome.results) logJson('info', 'marker handled', describeResult(result));
  for (const reason of outcome.ignored) logJson('warn', 'event record ignored', { reason });
  for (const failure of outcome.failures) logJson('error', 'marker failed; it will be delivered again', failure);
  if (isSqsEvent(event)) return { batchItemFailures: [...outcome.batchItemFailures] };
  if (outcome.failures.length > 0) throw new Error(`${outcome.failures.length} marker(s) failed: ${outcome.failures.map((f) => f.key).join(', ')}`);
  return undefined;
}

async function configure(env: NodeJS.ProcessEnv): Promise<GateDeps & { bucket: string }> {
  const bucket = requiredEnv(env, 'GATE_BUCKET');
  const topicArn = requiredEnv(env, 'GATE_TOPIC_ARN');
  const contracts = await loadContractDirectory(env.CONTRACTS_DIR ?? join(import.meta.dirname ?? '.', 'contracts'));
  return {
    bucket,
    // An explicit endpoint (a test, an S3-compatible store) needs path-style addressing.
    store: s3ObjectStore({ client: createS3Client(env.AWS_ENDPOINT_URL_S3 ? { endpoint: env.AWS_ENDPOINT_URL_S3 } : {}), bucket }),
    notifier: snsNotifier({ topicArn }),
    contracts,
    clock: Date.now,
    layout: layoutFrom(env),
    decider: fanoutDeciderFrom(env),
  };
}

function describeResult(result: MarkerResult): object {
  if ('decision' in result) {
    return { key: result.key, status: result.status, attempt: result.decision.attempt, summary: result.decision.report.summary };
  }
  return { key: result.key, status: result.status, reason: result.reason };
}

function isSqsEvent(event: unknown): boolean {
  const records = (event as { Records?: { eventSource?: string }[] } | null)?.Records;
  return Array.isArray(records) && records.some((r) => r?.eventSource === 'aws:sqs');
}
