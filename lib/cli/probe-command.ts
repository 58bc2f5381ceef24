import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import type { Notifier } from '../notify/notifier.js';
import { localNotifier } from '../notify/local-notifier.js';
import { snsNotifier } from '../notify/sns-notifier.js';
import { runProbe, type ProbeReport } from '../sla/probe.js';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { localObjectStore } from '../storage/local-object-store.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { parseNow } from './parse-now.js';

/** `probe`: runs the SLA probe once and lists the due partitions; exit 1 if any was missed. */
export async function probeCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      now: { type: 'string' }, format: { type: 'string', default: 'text' }, contracts: { type: 'string', default: './contracts' },
      bucket: { type: 'string', default: 'lake' }, endpoint: { type: 'string' }, dir: { type: 'string' },
      'topic-arn': { type: 'string' }, notifications: { type: 'string', default: join('.lake', 'notifications.jsonl') },
    },
  });
  const store: ObjectStore = values.dir ? localObjectStore({ root: values.dir }) : s3ObjectStore({ client: createS3Client({ endpoint: values.endpoint || undefined }), bucket: values.bucket });
  const notifier: Notifier = values['topic-arn'] ? snsNotifier({ topicArn: values['topic-arn'] }) : localNotifier({ file: values.notifications, print: (line) => io.stderr(`${line}\n`) });
  const report = await runProbe({ store, notifier, contracts: await loadContractDirectory(values.contracts), layout: DEFAULT_LAYOUT, now: parseNow(values.now) });
  io.stdout(values.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : formatProbeReport(report));
  return report.partitions.some((p) => p.status === 'missed') ? EXIT.violated : EXIT.ok;
}

function formatProbeReport(report: ProbeReport): string {
  const missed = report.partitions.filter((p) => p.status === 'missed').length;
  const lines = [`SLA probe at ${report.checked_at}: ${report.partitions.length} due ${report.partitions.length === 1 ? 'partition' : 'partitions'}, ${missed} missed`];
  for (const p of report.partitions) {
    const sent = p.sent.length > 0 ? ` [sent ${p.sent.join(', ')}]` : '';
    lines.push(`  ${p.status.toUpperCase().padEnd(9)} ${p.contract} ${p.version} ${p.partition}  due ${p.deadline}: ${p.detail}${sent}`);
  }
  return `${lines.join('\n')}\n`;
}
