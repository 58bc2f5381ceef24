import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { ownerLease } from '../gate/redrive.js';
import { releaseAttempt, type ReleaseResult } from '../gate/release.js';
import { localNotifier } from '../notify/local-notifier.js';
import type { Notifier } from '../notify/notifier.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { attemptTarget, type AttemptTarget } from './attempt-target.js';
import { callerIdentity } from './caller-identity.js';
import { EXIT, type CliIo } from './cli-io.js';
import { outputFormat } from './output-format.js';
import { COMMAND_HELP, RELEASE_USAGE } from './usage.js';

/** Where `serve` keeps its notifications unless given --dir. */
const SERVE_NOTIFICATIONS = './.lake/notifications.jsonl';

/**
 * `release`: publish a quarantined attempt as it is, because its owner says so. Exit 0 released
 * or already, 1 refused, 2 cannot run (no --reason; no --by at an endpoint without STS).
 */
export async function releaseCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.release.options });
  const format = outputFormat(values.format);
  if (positionals.length > 1) throw new GateError('bad_arguments', `one attempt folder at a time\nusage: ${RELEASE_USAGE}`);
  const target = attemptTarget(positionals[0], RELEASE_USAGE);
  const reason = values.reason?.trim();
  if (!reason) throw new GateError('bad_arguments', `--reason is required: say why data whose checks failed is published\nusage: ${RELEASE_USAGE}`);
  const notifier = await releaseNotifier(values, io);
  const who = await callerIdentity({ ...(values.by === undefined ? {} : { by: values.by }), ...(values.endpoint ? { endpoint: values.endpoint } : {}) });
  const client = createS3Client({ endpoint: values.endpoint });
  try {
    const store = s3ObjectStore({ client, bucket: target.bucket });
    const lease = ownerLease('release', (line) => io.stderr(`${line}\n`));
    const result = await releaseAttempt({ store, notifier, layout: DEFAULT_LAYOUT, clock: Date.now, lease }, target.ref, { ...who, reason });
    io.stdout(format === 'json' ? `${JSON.stringify(asJson(result, target), null, 2)}\n` : asText(result, target));
    return result.status === 'refused' ? EXIT.violated : EXIT.ok;
  } finally {
    client.destroy();
  }
}

/** The owner hears of it where the gate's notices go: its SNS topic, or locally serve's notifications file. */
async function releaseNotifier(values: { endpoint?: string; 'topic-arn'?: string; notifications?: string }, io: CliIo): Promise<Notifier> {
  if (values['topic-arn']) return (await import('../notify/sns-notifier.js')).snsNotifier({ topicArn: values['topic-arn'] });
  if (values.endpoint === undefined) throw new GateError('bad_arguments', "pass --topic-arn <arn>, the gate's SNS topic, so the owner is told of the release");
  return localNotifier({ file: values.notifications ?? SERVE_NOTIFICATIONS, print: (line) => io.stderr(`${line}\n`) });
}

function asText(result: ReleaseResult, target: AttemptTarget): string {
  if (result.status === 'refused') return `REFUSED release of ${target.url}: ${result.reason}\n`;
  const { audit } = result;
  const where = `s3://${target.bucket}`;
  const audited = `  audit: ${where}/${result.auditKey}\n`;
  if (result.status === 'already_released') return `ALREADY RELEASED ${target.url} by ${audit.by} at ${audit.completed_at ?? audit.at} (${audit.reason}): nothing to do\n${audited}`;
  return [
    `RELEASED ${target.url}${result.resumed ? ' (an interrupted run, finished)' : ''} by ${audit.by}, by override: ${audit.copies.length} ${audit.copies.length === 1 ? 'file' : 'files'} published, attempt ${audit.attempt}`,
    `  manifest: ${where}/${audit.success}`,
    audited,
  ].join('\n');
}

function asJson(result: ReleaseResult, target: AttemptTarget): Record<string, unknown> {
  const exit = result.status === 'refused' ? EXIT.violated : EXIT.ok;
  if (result.status === 'refused') return { verdict: 'refused', exit_code: exit, attempt: target.ref.attempt, folder: target.url, reason: result.reason };
  const manifest = result.audit.success === undefined ? null : `s3://${target.bucket}/${result.audit.success}`;
  return { verdict: result.status, exit_code: exit, attempt: target.ref.attempt, folder: target.url, resumed: result.resumed, manifest, audit_key: `s3://${target.bucket}/${result.auditKey}`, audit: result.audit };
}
