import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { readOnlyStore } from '../replay/read-only-store.js';
import { replayHistory } from '../replay/replay-history.js';
import { replayJson } from '../replay/replay-json.js';
import type { ReplaySummary } from '../replay/replay-summary.js';
import { formatReplayText } from '../replay/replay-table.js';
import { replayWindow } from '../replay/replay-window.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { COMMAND_HELP } from './usage.js';

const USAGE = COMMAND_HELP.replay.usage;

/**
 * `replay`: what a proposed contract would have decided for the partitions the gate decided in
 * the last days, read-only. Exit 1 when a published partition would now be quarantined; the
 * quarantined attempts (`--quarantined`) are shown and never change the exit code.
 */
export async function replayCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.replay.options });
  if (positionals.length > 0) throw new GateError('bad_arguments', `replay takes no operands, found "${positionals[0]}"\nusage: ${USAGE}`);
  if (!values.contract || !values.from) throw new GateError('bad_arguments', `--contract and --from are required\nusage: ${USAGE}`);
  if (values.format !== 'text' && values.format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${values.format}"`);
  const bucket = bucketOf(values.from);
  const window = replayWindow({ last: values.last, since: values.since }, parseNow(values.now));
  const contract = await requireContract(values.contract, io.stderr, loadOptionsFrom(values));
  const store = readOnlyStore(s3ObjectStore({ client: createS3Client({ endpoint: values.endpoint }), bucket }));
  const progress = values.format === 'text' && io.isTTY;
  const run = await replayHistory(store, contract, {
    window,
    quarantined: values.quarantined,
    ...(progress ? { onPartition: (partition: string) => io.stderr(`\r\x1b[2Kreplaying ${partition}`) } : {}),
  });
  if (progress) io.stderr('\r\x1b[2K');
  const exit = exitCode(run.summary);
  io.stdout(values.format === 'json' ? `${JSON.stringify(replayJson(run, exit), null, 2)}\n` : formatReplayText(run));
  return exit;
}

/** `s3://bucket`: a replay reads the gate's own layout (published/, quarantine/) from the bucket's root. */
function bucketOf(from: string): string {
  const match = /^s3:\/\/([^/]+)\/?$/.exec(from);
  if (!match?.[1]) throw new GateError('bad_arguments', `--from must be s3://<bucket>, the bucket the gate publishes into; found "${from}"`);
  return match[1];
}

/**
 * A failure the contract would cause outranks a partition it could not judge; a partition not
 * judged is not a pass either, so a CI step saying "it would have passed" cannot claim it.
 */
function exitCode(summary: ReplaySummary): number {
  if (summary.published.failing > 0) return EXIT.violated;
  return summary.published.unreadable > 0 ? EXIT.cannotProceed : EXIT.ok;
}
