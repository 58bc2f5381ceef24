import { handleStorageEvent } from '../../lib/gate/handle-event.js';
import type { GateDeps } from '../../lib/gate/process-marker.js';
import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { threadedObjectChecks } from '../../lib/parallel/threaded-object-checks.js';
import { prestartCheckWorkers } from '../../lib/parallel/worker-pool.js';
import { fanoutDeciderFrom } from '../fanout/fanout-environment.js';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { checkThreads, gateContracts, gateStore, lambdaDeadline, layoutFrom, positiveEnv, requiredEnv } from '../gate-environment.js';
import { logger, observed, type InvocationContext } from '../observability.js';
import { correlationOf, invocationCorrelationId, recordCorrelations } from '../observability-correlation.js';
import { reportDrop, reportFailure, resultKeys } from '../observability-drops.js';
import { invocationTally } from '../observability-tally.js';

/** The threads a deployed function checks with, for benchmarks that invoke the bundle. */
export { checkThreads } from '../gate-environment.js';

/**
 * The validate Lambda: an adapter. It reads its configuration from the environment, builds the
 * S3 store and the SNS notifier, and hands every event to the gate.
 *
 * Environment: GATE_BUCKET, GATE_TOPIC_ARN, where contracts come from (GATE_CONTRACTS_SOURCE and
 * the rest: see gateContracts), and optionally GATE_STAGING_PREFIX, GATE_PUBLISHED_PREFIX, GATE_QUARANTINE_PREFIX,
 * GATE_STATE_PREFIX, GATE_MARKER; GATE_FANOUT_MAX_FILES and GATE_FANOUT_MAX_BYTES hand bigger
 * partitions to the fan-out state machine (lambdas/fanout/); GATE_CHECK_THREADS overrides the
 * threads the checks use (see checkThreads), GATE_PARALLEL_MIN_VALUES the values to decode
 * from which they use more than one (see lib/parallel/parallel-checks.ts). Logs and metrics: see
 * lambdas/observability.ts (POWERTOOLS_SERVICE_NAME, POWERTOOLS_METRICS_NAMESPACE, POWERTOOLS_LOG_LEVEL).
 */
let ready: Promise<GateDeps & { bucket: string }> | undefined;

// The check workers start with the module, during the function's init, and stay warm between
// invocations; a bad GATE_CHECK_THREADS is told by configure(), on the first event.
prestartCheckWorkers(threadsOr1(process.env) - 1);

function threadsOr1(env: NodeJS.ProcessEnv): number {
  try {
    return checkThreads(env);
  } catch {
    return 1;
  }
}

export async function handler(event: unknown, context?: InvocationContext): Promise<{ batchItemFailures: { itemIdentifier: string }[] } | undefined> {
  return observed(context, invocationCorrelationId(event), async () => {
    const deps = await (ready ??= configure(process.env));
    // Stop cleanly between two storage calls rather than be killed in the middle of one.
    const deadline = lambdaDeadline(context);
    // Seen at the ports: which drops this invocation carried out, and how long their checks ran.
    const tally = invocationTally();
    const run = { ...deps, notifier: tally.notifier(deps.notifier), checks: tally.checks(deps.checks), ...(deadline === undefined ? {} : { deadline }) };
    const outcome = await handleStorageEvent(run, event);
    const layout = deps.layout ?? DEFAULT_LAYOUT;
    const correlations = recordCorrelations(event);
    for (const result of outcome.results) {
      reportDrop(result, { keys: resultKeys(layout, result.key, result), observe: tally.observe, correlation: correlationOf(correlations, result.key), message: 'marker handled' });
    }
    for (const reason of outcome.ignored) logger.warn('event record ignored', { reason });
    for (const failure of outcome.failures) reportFailure(failure, { layout, correlation: correlationOf(correlations, failure.key) });
    if (isSqsEvent(event)) return { batchItemFailures: [...outcome.batchItemFailures] };
    if (outcome.failures.length > 0) throw new Error(`${outcome.failures.length} marker(s) failed: ${outcome.failures.map((f) => f.key).join(', ')}`);
    return undefined;
  });
}

async function configure(env: NodeJS.ProcessEnv): Promise<GateDeps & { bucket: string }> {
  const { bucket, store } = gateStore(env);
  const topicArn = requiredEnv(env, 'GATE_TOPIC_ARN');
  const notifier = snsNotifier({ topicArn });
  const contracts = await gateContracts(env, import.meta.dirname, store, notifier);
  return {
    bucket,
    store,
    notifier,
    contracts,
    clock: Date.now,
    layout: layoutFrom(env),
    decider: fanoutDeciderFrom(env),
    checks: threadedObjectChecks({ bucket, endpoint: env.AWS_ENDPOINT_URL_S3 || undefined }, checkThreads(env), positiveEnv(env, 'GATE_PARALLEL_MIN_VALUES')),
  };
}

function isSqsEvent(event: unknown): boolean {
  const records = (event as { Records?: { eventSource?: string }[] } | null)?.Records;
  return Array.isArray(records) && records.some((r) => r?.eventSource === 'aws:sqs');
}
