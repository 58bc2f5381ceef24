import { join } from 'node:path';
import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { runProbe, type ProbeReport } from '../../lib/sla/probe.js';
import { loadContractDirectory } from '../../lib/storage/contract-directory.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { logJson } from '../log-json.js';
import { layoutFrom, requiredEnv } from '../gate-environment.js';

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
  const bucket = requiredEnv(env, 'GATE_BUCKET');
  return {
    store: s3ObjectStore({ client: createS3Client(env.AWS_ENDPOINT_URL_S3 ? { endpoint: env.AWS_ENDPOINT_URL_S3 } : {}), bucket }),
    notifier: snsNotifier({ topicArn: requiredEnv(env, 'GATE_TOPIC_ARN') }),
    contracts: await loadContractDirectory(env.CONTRACTS_DIR ?? join(import.meta.dirname ?? '.', 'contracts')),
    layout: layoutFrom(env),
  };
}
