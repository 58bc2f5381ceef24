import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import type { Notice, Notifier } from '../notify/notifier.js';
import { localNotifier, readableLine } from '../notify/local-notifier.js';
import { snsNotifier } from '../notify/sns-notifier.js';
import { runProbe, type ProbeReport } from '../sla/probe.js';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { EXIT, type CliIo } from './cli-io.js';
import { dryRunStore } from './dry-run-store.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { openProbeLake } from './probe-lake.js';

/** Where `serve` keeps its lake and notifications unless given --dir. */
const SERVE_DIR = './.lake';

/**
 * `probe`: runs the SLA probe once and lists the due partitions; exit 1 if any was missed.
 * Without --endpoint or --aws it probes the lake `serve` keeps in --dir (./.lake), through the
 * running serve or on its files, and pages into its notifications.jsonl, as serve's own probe does. `--dry-run` pages nobody and writes
 * no claim: it prints what a real run would send.
 */
export async function probeCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      now: { type: 'string' }, format: { type: 'string', default: 'text' }, contracts: { type: 'string', default: './contracts' },
      bucket: { type: 'string' }, endpoint: { type: 'string' }, dir: { type: 'string' }, aws: { type: 'boolean', default: false },
      'topic-arn': { type: 'string' }, notifications: { type: 'string' },
      'dry-run': { type: 'boolean', default: false }, 'default-notify': { type: 'string' }, 'default-format': { type: 'string' },
    },
  });
  if (values.format !== 'text' && values.format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${values.format}"`);
  const now = parseNow(values.now);
  const loadOptions = loadOptionsFrom(values);
  // Warnings only with defaults, as serve: then they say which settings came from outside the files.
  const contracts = await loadContractDirectory(values.contracts, { ...loadOptions, ...(loadOptions.defaults ? { warn: io.stderr } : {}) });
  const dir = values.dir ?? SERVE_DIR;
  const lake = await openProbeLake({ dir, dirGiven: values.dir !== undefined, endpoint: values.endpoint, aws: values.aws, bucket: values.bucket });
  try {
    const dryRun = values['dry-run'];
    const wouldSend: Notice[] = [];
    const notifier: Notifier = dryRun ? { notify: async (notice) => void wouldSend.push(notice) } : realNotifier({ ...values, dir }, io);
    const store = dryRun ? dryRunStore(lake.store) : lake.store;
    // Contracts come from files here; a lake with a registry (every serve's) says since when they are known.
    const report = await runProbe({ store, notifier, contracts, layout: DEFAULT_LAYOUT, now, registryPrefix: DEFAULT_REGISTRY_PREFIX });
    const shown = dryRun ? { ...report, dry_run: true, would_send: wouldSend.map(({ subject, attributes }) => ({ subject, attributes })) } : report;
    io.stdout(values.format === 'json' ? `${JSON.stringify(shown, null, 2)}\n` : formatProbeReport(report, lake.description, dryRun ? wouldSend : undefined));
    return report.partitions.some((p) => p.status === 'missed') ? EXIT.violated : EXIT.ok;
  } finally {
    await lake.close();
  }
}

/** Pages go where `serve`'s own probe sends them: `<dir>/notifications.jsonl`, or SNS with --topic-arn. */
function realNotifier(values: { 'topic-arn'?: string; notifications?: string; dir: string }, io: CliIo): Notifier {
  if (values['topic-arn']) return snsNotifier({ topicArn: values['topic-arn'] });
  return localNotifier({ file: values.notifications ?? join(values.dir, 'notifications.jsonl'), print: (line) => io.stderr(`${line}\n`) });
}

/** `wouldSend` is set on a dry run: what was "sent" is then what a real run would send. */
function formatProbeReport(report: ProbeReport, lake: string, wouldSend?: readonly Notice[]): string {
  const missed = report.partitions.filter((p) => p.status === 'missed').length;
  const due = `${report.partitions.length} due ${report.partitions.length === 1 ? 'partition' : 'partitions'}`;
  const lines = [`SLA probe of ${lake} at ${report.checked_at}${wouldSend ? ' (dry run: nothing sent, no claim written)' : ''}: ${due}, ${missed} missed`];
  const sentWord = wouldSend ? 'would send' : 'sent';
  for (const p of report.partitions) {
    const sent = p.sent.length > 0 ? ` [${sentWord} ${p.sent.join(', ')}]` : '';
    lines.push(`  ${p.status.toUpperCase().padEnd(9)} ${p.contract} ${p.version} ${p.partition}  due ${p.deadline}: ${p.detail}${sent}`);
  }
  for (const r of report.reminders) lines.push(`  SUNSET    ${r.contract} ${r.version} sunsets ${r.sunset} [${sentWord} sunset_reminder, ${r.days_before} days before]`);
  for (const notice of wouldSend ?? []) lines.push(`would send: ${readableLine(notice)}`);
  return `${lines.join('\n')}\n`;
}
