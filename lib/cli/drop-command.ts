import { parseArgs } from 'node:util';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { awaitOutcome, decisionsBefore, identifyDrop } from '../gate/await-outcome.js';
import { dropPartition, type FileToDrop } from '../gate/drop-partition.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { createS3Client } from '../storage/s3-client.js';
import type { ObjectStore } from '../storage/object-store.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { readPointer } from '../registry/read-registry.js';
import { DEFAULT_REGISTRY_PREFIX } from '../registry/registry-layout.js';
import type { CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { dropTarget, waitedAddress, type DropTarget } from './drop-target.js';
import { DROP_EXIT, dropVerdict, formatDropVerdict } from './drop-verdict.js';
import { localDropFiles } from './local-drop-files.js';
import { formatDuration, parseDuration } from './parse-duration.js';
import { DROP_USAGE } from './usage.js';

/** Long enough for a big partition on a busy gate; a scheduler's own task timeout is usually longer. */
const DEFAULT_TIMEOUT = '15m';

interface DropOptions {
  readonly contract: string;
  readonly to: string;
  readonly dir: string;
  readonly endpoint?: string;
  readonly wait: boolean;
  readonly timeoutMs: number;
  readonly format: 'text' | 'json';
}

/**
 * `drop`: what a producer job calls. Uploads a partition's data files, then the `_READY`
 * manifest, and by default waits for the gate's verdict on this very drop, so the job's task
 * fails when its data was quarantined: exit 0 published, 1 quarantined, refused or superseded,
 * 2 bad input or a failed upload, 3 no decision within --timeout. `--no-wait` returns after the upload.
 */
export async function dropCommand(args: string[], io: CliIo): Promise<number> {
  const options = parseDropOptions(args);
  const contract = await requireContract(options.contract, io.stderr);
  const target = dropTarget(options.to, options.dir, contract);
  // Before any upload: a drop that cannot be waited for is refused while nothing was written.
  const waited = options.wait ? waitedAddress(target, contract) : undefined;
  const files = await localDropFiles(options.dir);
  if (files.length === 0) throw new GateError('bad_arguments', `${options.dir} holds no data files (names starting with _ or . are not data)`);
  const store = s3ObjectStore({ client: createS3Client({ endpoint: options.endpoint }), bucket: target.bucket });
  await warnIfNotRegistered(store, contract, io);
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
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      contract: { type: 'string' }, to: { type: 'string' }, endpoint: { type: 'string' },
      wait: { type: 'boolean' }, 'no-wait': { type: 'boolean' }, timeout: { type: 'string', default: DEFAULT_TIMEOUT }, format: { type: 'string', default: 'text' },
    },
  });
  const [dir] = positionals;
  if (!values.contract || !values.to || !dir || positionals.length > 1) throw new GateError('bad_arguments', `usage: ${DROP_USAGE}`);
  if (values.wait && values['no-wait']) throw new GateError('bad_arguments', 'pass --wait or --no-wait, not both (waiting is the default)');
  if (values.format !== 'text' && values.format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${values.format}"`);
  return {
    contract: values.contract, to: values.to, dir, ...(values.endpoint ? { endpoint: values.endpoint } : {}),
    wait: !values['no-wait'], timeoutMs: parseDuration('--timeout', values.timeout), format: values.format,
  };
}

function droppedLine(files: readonly FileToDrop[], target: DropTarget, marker: string): string {
  return `dropped ${files.length} ${files.length === 1 ? 'file' : 'files'} into s3://${target.bucket}/${target.prefix}, then s3://${target.bucket}/${marker}`;
}

/** `--no-wait`: the upload is all there is to report, as before waiting existed. */
function printDropped(io: CliIo, options: DropOptions, dropped: string, target: DropTarget, marker: string, files: readonly FileToDrop[]): number {
  if (options.format === 'text') io.stdout(`${dropped}\n`);
  else io.stdout(`${JSON.stringify({ verdict: 'dropped', outcome: null, exit_code: DROP_EXIT.published, marker: `s3://${target.bucket}/${marker}`, files: files.map((f) => `s3://${target.bucket}/${target.prefix}${f.relative}`) }, null, 2)}\n`);
  return DROP_EXIT.published;
}

/**
 * The gate judges by the version registered on the bucket, not the producer's file: a file
 * edited but not yet published is said before the upload. A bucket whose registry this caller
 * may not read, or a gate with bundled contracts, says nothing.
 */
async function warnIfNotRegistered(store: ObjectStore, contract: Contract, io: CliIo): Promise<void> {
  const registered = await readPointer(store, DEFAULT_REGISTRY_PREFIX, contract.name, contract.version.major).catch(() => undefined);
  if (!registered || registered.pointer.version === contract.version.text) return;
  io.stderr(`note: the gate enforces ${contract.name} ${registered.pointer.version}, the version registered on the bucket; ${contract.version.text} in your file is not registered (run contract-gate publish first)\n`);
}

function datasetName(contract: Contract): string {
  return `${contract.name} v${contract.version.major}`;
}
