import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import { DEFAULT_REGISTRY_PREFIX } from '../../lib/registry/registry-layout.js';
import { reconcileSubscriptions, type ReconcileDeps } from '../../lib/subscriptions/reconcile-subscriptions.js';
import { snsTopicSubscriptions } from '../../lib/subscriptions/sns-topic-subscriptions.js';
import { gateStore, requiredEnv } from '../gate-environment.js';
import { logger, observed, publishServiceMetrics, type InvocationContext } from '../observability.js';
import { invocationCorrelationId } from '../observability-correlation.js';

/**
 * The subscription reconciler, run by registry pointer writes (S3 object-created) and an hourly
 * schedule: an adapter from the environment (GATE_BUCKET, GATE_TOPIC_ARN, GATE_REGISTRY_PREFIX,
 * GATE_STATE_PREFIX) to reconcileSubscriptions. The event itself is not read (but for its
 * correlation id): every run compares the whole registry with the whole topic. Metrics:
 * SubscriptionChanges and SubscriptionFailures, each run, 0 included.
 */
let ready: Omit<ReconcileDeps, 'now'> | undefined;

export async function handler(event?: unknown, context?: InvocationContext): Promise<{ changed: number; failed: number }> {
  return observed(context, invocationCorrelationId(event), async () => {
    const deps = (ready ??= configure(process.env));
    const report = await reconcileSubscriptions({ ...deps, now: Date.now() });
    for (const problem of report.problems) logger.warn('registered contract not loaded; no subscription is removed this run', { problem });
    for (const result of report.results) {
      if (result.outcome === 'failed') logger.error(`subscription ${result.kind}: ${result.outcome}`, { ...result });
      else logger.info(`subscription ${result.kind}: ${result.outcome}`, { ...result });
    }
    const changed = report.results.filter((r) => r.outcome === 'done').length;
    const failed = report.results.filter((r) => r.outcome === 'failed').length;
    logger.info('subscriptions reconciled', { contracts: report.contracts, unmanaged: report.unmanaged, stateWritten: report.stateWritten, failed });
    // Published before a failure throws: the failed run is the one whose metric matters.
    publishServiceMetrics([{ name: 'SubscriptionChanges', unit: 'Count', value: changed }, { name: 'SubscriptionFailures', unit: 'Count', value: failed }]);
    // Lambda retries a failed asynchronous run; what did succeed is already recorded.
    if (failed > 0) throw new Error(`${failed} subscription change(s) failed; see the log lines before this one`);
    return { changed, failed };
  });
}

function configure(env: NodeJS.ProcessEnv): Omit<ReconcileDeps, 'now'> {
  const topicArn = requiredEnv(env, 'GATE_TOPIC_ARN');
  return {
    store: gateStore(env).store,
    topic: snsTopicSubscriptions({ topicArn }),
    topicArn,
    registryPrefix: env.GATE_REGISTRY_PREFIX || DEFAULT_REGISTRY_PREFIX,
    statePrefix: env.GATE_STATE_PREFIX || DEFAULT_LAYOUT.state,
  };
}
