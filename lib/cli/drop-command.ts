import { parseArgs } from 'node:util';
import { GateError } from '../errors.js';
import { awaitOutcome, decisionsBefore, identifyDrop } from '../gate/await-outcome.js';
import { dropPartition, type FileToDrop } from '../gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';
import type { CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { checkDropFormats, checkRegistered, NO_REGISTRY } from './drop-checks.js';
import { datasetName, droppedLine, dropTarget, waitedAddress, type DropOptions, type DropTarget } from './drop-target.js';
import { DROP_EXIT, dropVerdict, formatDropVerdict } from './drop-verdict.js';
import { localDropFiles } from './local-drop-files.js';
import { formatDuration, parseDuration } from './parse-duration.js';
import { COMMAND_HELP, DROP_USAGE } from './usage.js';

/**
 * `drop`: what a producer job calls. Uploads a partition's data files, then the `_READY`
 * manifest, and by default waits for the gate's verdict on this very drop, so the job's task
 * fails when its data was quarantined: exit 0 published, 1 quarantined, refused or superseded,
 * 2 bad input or a failed upload, 3 no decision within --timeout. `--no-wait` returns after the upload.
 * What the gate would refuse unread (no registered contract, files not in produces.format) is
 * refused here instead, before a byte is uploaded (drop-checks.ts).
 */
export async function dropCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseDropOptions(args);
  if (options.linked) return (await import('./linked-drop.js')).linkedDropCommand(options, options.linked, io);
  const contract = await requireContract(options.contract, io.stderr);
  const target = dropTarget(options.to, options.dir, contract);
  // Before any upload: a drop that cannot be waited for is refused while nothing was written.
  const waited = options.wait ? waitedAddress(target, contract) : undefined;
  const files = await localDropFiles(options.dir);
  if (files.length === 0) throw new GateError('bad_arguments', `${options.dir} holds no data files (names starting with _ or . are not data)`);
  await checkDropFormats(options.dir, files, contract, options.contract);
  const store = s3ObjectStore({ client: createS3Client({ endpoint: options.endpoint }), bucket: target.bucket });
  await checkRegistered({ store, bucket: target.bucket, registry: options.registry, contract, contractFile: options.contract, ...(options.endpoint ? { endpoint: options.endpoint } : {}) }, io);
  const known = waited ? await decisionsBefore(store, waited.layout, waited.address) : new Set<string>();
  const { marker, markerEtag } = await dropPartition(store, waited?.layout ?? DEFAULT_LAYOUT, target.prefix, files);
  const dropped = droppedLine(files, target, marker);
  if (!waited) return printDropped(io, options, dropped, target, marker, files);
  const identity = await identifyDrop(store, marker, markerEtag, known);
  io.stderr(`${dropped}\nwaiting up to ${formatDuration(options.timeoutMs)} for the gate's verdict on s3://${target.bucket}/${marker} (--no-wait skips this)\n`);
  const awaited = await awaitOutcome(store, waited.layout, waited.address, identity, { timeoutMs: options.timeoutMs, progress: (line) => io.stderr(`${line}\n`) });
  const verdict = dropVerdict(awaited, {
    location: store.location, layout: waited.layout, marker: `s3://${target.bucket}/${marker}`, dataset: datasetName(contract), partition: waited.address.partition, timeoutMs: options.timeoutMs,
  });
  io.stdout(options.format === 'json' ? `${JSON.stringify(verdict, null, 2)}\n` : formatDropVerdict(verdict));
  return verdict.exit_code;
}

function parseDropOptions(args: string[]): DropOptions {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.drop.options });
  const [dir] = positionals;
  const contracts = values.contract ?? [];
  if (contracts.length === 0 || contracts.length > 2 || !values.to || !dir || positionals.length !== contracts.length) throw new GateError('bad_arguments', `usage: ${DROP_USAGE}`);
  if (values.wait && values['no-wait']) throw new GateError('bad_arguments', 'pass --wait or --no-wait, not both (waiting is the default)');
  if (values.format !== 'text' && values.format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${values.format}"`);
  return {
    contract: contracts[0]!, to: values.to, dir, ...(contracts.length === 2 ? { linked: { contracts, dirs: positionals } } : {}), ...(values.endpoint ? { endpoint: values.endpoint } : {}), registry: registryPrefix(values.registry),
    wait: !values['no-wait'], timeoutMs: parseDuration('--timeout', values.timeout), format: values.format,
  };
}


/** `--no-wait`: the upload is all there is to report, as before waiting existed. */
function printDropped(io: CliIo, options: DropOptions, dropped: string, target: DropTarget, marker: string, files: readonly FileToDrop[]): number {
  if (options.format === 'text') io.stdout(`${dropped}\n`);
  else io.stdout(`${JSON.stringify({ verdict: 'dropped', outcome: null, exit_code: DROP_EXIT.published, marker: `s3://${target.bucket}/${marker}`, files: files.map((f) => `s3://${target.bucket}/${target.prefix}${f.relative}`) }, null, 2)}\n`);
  return DROP_EXIT.published;
}

/** A prefix ends in `/`, as the gate's configuration has it; `none` stays as it is. */
function registryPrefix(text: string): string {
  if (text === NO_REGISTRY) return text;
  if (text === '' || text.startsWith('/')) throw new GateError('bad_arguments', `--registry must be the registry's key prefix, e.g. ${DEFAULT_REGISTRY_PREFIX}, or ${NO_REGISTRY}; found "${text}"`);
  return text.replace(/\/?$/, '/');
}
