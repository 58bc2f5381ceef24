import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { runProbe, type ProbeReport } from '../../lib/sla/probe.js';
import { gateContracts, gateStore, layoutFrom, requiredEnv } from '../gate-environment.js';
import { logJson } from '../log-json.js';

/**
 * The SLA probe Lambda, run by an EventBridge schedule: an adapter from the environment
 * (GATE_BUCKET, GATE_TOPIC_ARN, CONTRACTS_DIR, the prefix variables) to the probe.
 */
let ready: Promise<Omit<Parameters<typeof runProbe>[0], 'now'>> | undefined;

export async function handler(): Promise<{ missed: number; checked: number }> {
  const deps = await (ready ??= configure(process.env));
  const report: ProbeReport = await runProbe({ ...deps, now: Date.now() });
  for (const partition of report.partitions) {
    const level = partition.status === 'missed' ? 'warn' : 'info';
    logJson(level, 'partition probed', partition);
  }
  return { missed: report.partitions.filter((p) => p.status === 'missed').length, checked: report.partitions.length };
}

async function configure(env: NodeJS.ProcessEnv): Promise<Omit<Parameters<typeof runProbe>[0], 'now'>> {
  const { store } = gateStore(env);
  return {
    store,
    notifier: snsNotifier({ topicArn: requiredEnv(env, 'GATE_TOPIC_ARN') }),
    contracts: await gateContracts(env, import.meta.dirname, store),
    layout: layoutFrom(env),
  };
}
