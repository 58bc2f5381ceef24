import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { ownerLease, redriveAttempt, type RedriveResult } from '../gate/redrive.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { attemptTarget, type AttemptTarget } from './attempt-target.js';
import { callerIdentity, localUser } from './caller-identity.js';
import { EXIT, type CliIo } from './cli-io.js';
import { outputFormat } from './output-format.js';
import { COMMAND_HELP, REDRIVE_USAGE } from './usage.js';

/**
 * `redrive`: the contract was wrong and is fixed; put a quarantined attempt back into staging so
 * the gate judges it again. Exit 0 redriven or already, 1 refused, 2 cannot run.
 */
export async function redriveCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.redrive.options });
  const format = outputFormat(values.format);
  if (positionals.length > 1) throw new GateError('bad_arguments', `one attempt folder at a time\nusage: ${REDRIVE_USAGE}`);
  const target = attemptTarget(positionals[0], REDRIVE_USAGE);
  const who = await callerIdentity({ ...(values.by === undefined ? {} : { by: values.by }), ...(values.endpoint ? { endpoint: values.endpoint } : {}), local: localUser });
  const client = createS3Client({ endpoint: values.endpoint });
  try {
    const store = s3ObjectStore({ client, bucket: target.bucket });
    const lease = ownerLease('redrive', (line) => io.stderr(`${line}\n`));
    const result = await redriveAttempt({ store, layout: DEFAULT_LAYOUT, clock: Date.now, lease }, target.ref, { ...who, reason: values.reason ?? null });
    io.stdout(format === 'json' ? `${JSON.stringify(asJson(result, target), null, 2)}\n` : asText(result, target));
    return result.status === 'refused' ? EXIT.violated : EXIT.ok;
  } finally {
    client.destroy();
  }
}

function asText(result: RedriveResult, target: AttemptTarget): string {
  if (result.status === 'refused') return `REFUSED redrive of ${target.url}: ${result.reason}\n`;
  const { audit } = result;
  const where = `s3://${target.bucket}`;
  const audited = `  audit: ${where}/${result.auditKey}\n`;
  if (result.status === 'already_redriven') return `ALREADY REDRIVEN ${target.url} by ${audit.by} at ${audit.completed_at ?? audit.at}: nothing to do\n${audited}`;
  const files = `${audit.copies.length} ${audit.copies.length === 1 ? 'file' : 'files'}`;
  const marker = audit.marker ? `${where}/${audit.marker.key} (${audit.marker.bytes})` : 'its marker';
  return [
    `REDRIVEN ${target.url}${result.resumed ? ' (an interrupted run, finished)' : ''}: ${files} back in staging, then ${marker}; the gate judges the drop again under the current contract`,
    ...audit.copies.map((copy) => `  ${copy.from} -> ${copy.to}`),
    audited,
  ].join('\n');
}

function asJson(result: RedriveResult, target: AttemptTarget): Record<string, unknown> {
  const exit = result.status === 'refused' ? EXIT.violated : EXIT.ok;
  if (result.status === 'refused') return { verdict: 'refused', exit_code: exit, attempt: target.ref.attempt, folder: target.url, reason: result.reason };
  return { verdict: result.status, exit_code: exit, attempt: target.ref.attempt, folder: target.url, resumed: result.resumed, audit_key: `s3://${target.bucket}/${result.auditKey}`, audit: result.audit };
}
