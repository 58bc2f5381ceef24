import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { runProbe, type ProbeReport } from '../../lib/sla/probe.js';
import { gateContracts, gateStore, layoutFrom, positiveEnv, requiredEnv } from '../gate-environment.js';
import { logger, observed, type InvocationContext } from '../observability.js';
import { invocationCorrelationId } from '../observability-correlation.js';
import { publishProbeMetrics } from '../observability-probe.js';

/**
 * The SLA probe Lambda, run by an EventBridge schedule: an adapter from the environment
 * (GATE_BUCKET, GATE_TOPIC_ARN, CONTRACTS_DIR, the prefix variables, GATE_ABANDONED_AFTER_HOURS) to the probe. Its metrics:
 * ProbeChecked, and ProbeMisses per contract (see observability-probe.ts).
 */
let ready: Promise<Omit<Parameters<typeof runProbe>[0], 'now'>> | undefined;

export async function handler(event?: unknown, context?: InvocationContext): Promise<{ missed: number; checked: number }> {
  return observed(context, invocationCorrelationId(event), async () => {
    const deps = await (ready ??= configure(process.env));
    const report: ProbeReport = await runProbe({ ...deps, now: Date.now() });
    for (const partition of report.partitions) {
      if (partition.status === 'missed') logger.warn('partition probed', { ...partition });
      else logger.info('partition probed', { ...partition });
    }
    publishProbeMetrics(report);
    return { missed: report.partitions.filter((p) => p.status === 'missed').length, checked: report.partitions.length };
  });
}

async function configure(env: NodeJS.ProcessEnv): Promise<Omit<Parameters<typeof runProbe>[0], 'now'>> {
  const { store } = gateStore(env);
  const notifier = snsNotifier({ topicArn: requiredEnv(env, 'GATE_TOPIC_ARN') });
  return {
    store,
    notifier,
    contracts: await gateContracts(env, import.meta.dirname, store, notifier),
    layout: layoutFrom(env),
    abandonedAfterHours: positiveEnv(env, 'GATE_ABANDONED_AFTER_HOURS') ?? 24,
  };
}
