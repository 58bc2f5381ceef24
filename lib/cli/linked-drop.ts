import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { awaitOutcome, decisionsBefore, identifyDrop } from '../gate/await-outcome.js';
import { putMarker, uploadFiles, type FileToDrop } from '../gate/drop-partition.js';
import type { DropAddress, GateLayout } from '../gate/gate-layout.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import type { CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { checkDropFormats, checkRegistered } from './drop-checks.js';
import { datasetName, droppedLine, dropTarget, waitedAddress, type DropOptions, type DropTarget } from './drop-target.js';
import { dropVerdict, formatDropVerdict, type DropVerdict } from './drop-verdict.js';
import { localDropFiles } from './local-drop-files.js';
import { formatDuration } from './parse-duration.js';

/** One side of a linked drop, checked before anything is uploaded. */
interface Side {
  readonly contractFile: string;
  readonly contract: Contract;
  readonly dir: string;
  readonly target: DropTarget;
  readonly layout: GateLayout;
  readonly address: DropAddress;
  readonly files: readonly FileToDrop[];
}

/**
 * `drop --contract v1.yaml --contract v2.yaml <v1 dir> <v2 dir>`: a dual-write drop. Both
 * partitions' files go up first, then both markers, each naming the other, so the gate publishes
 * both only if both pass. Exit 0 only when both were published.
 */
export async function linkedDropCommand(options: DropOptions, linked: NonNullable<DropOptions['linked']>, io: CliIo): Promise<number> {
  const sides = await prepareSides(options, linked, io);
  const bucket = sides[0].target.bucket;
  const store = s3ObjectStore({ client: createS3Client({ endpoint: options.endpoint }), bucket });
  for (const side of sides) await checkRegistered({ store, bucket, registry: options.registry, contract: side.contract, contractFile: side.contractFile, ...(options.endpoint ? { endpoint: options.endpoint } : {}) }, io);
  const known = options.wait ? await Promise.all(sides.map((side) => decisionsBefore(store, side.layout, side.address))) : [];
  for (const side of sides) await uploadFiles(store, side.target.prefix, side.files);
  const markers: { marker: string; markerEtag: string }[] = [];
  for (const [i, side] of sides.entries()) {
    const sibling = sides[1 - i]!.address;
    markers.push(await putMarker(store, side.layout, side.target.prefix, side.files, { major: sibling.major, partition: sibling.partition }));
  }
  const dropped = sides.map((side, i) => droppedLine(side.files, side.target, markers[i]!.marker)).join('\n');
  if (!options.wait) {
    io.stdout(options.format === 'json' ? `${JSON.stringify({ verdict: 'dropped', linked: markers.map((m) => `s3://${bucket}/${m.marker}`), exit_code: 0 }, null, 2)}\n` : `${dropped}\n`);
    return 0;
  }
  io.stderr(`${dropped}\nwaiting up to ${formatDuration(options.timeoutMs)} for the gate's verdict on both (a linked drop is published only if both pass)\n`);
  const verdicts: DropVerdict[] = [];
  for (const [i, side] of sides.entries()) verdicts.push(await awaitSide(store, options, side, markers[i]!, known[i]!, io));
  const exit = Math.max(...verdicts.map((v) => v.exit_code));
  io.stdout(options.format === 'json' ? `${JSON.stringify({ linked: verdicts, exit_code: exit }, null, 2)}\n` : verdicts.map(formatDropVerdict).join(''));
  return exit;
}

async function prepareSides(options: DropOptions, linked: NonNullable<DropOptions['linked']>, io: CliIo): Promise<[Side, Side]> {
  if (/^s3:\/\/[^/]+\/./.test(options.to)) throw new GateError('bad_arguments', `a linked drop goes under the staging prefix of each major, named by its contract: pass --to s3://<bucket>, not "${options.to}"`);
  const sides: Side[] = [];
  for (const [i, contractFile] of linked.contracts.entries()) {
    const dir = linked.dirs[i]!;
    const contract = await requireContract(contractFile, io.stderr);
    const target = dropTarget(options.to, dir, contract);
    const { layout, address } = waitedAddress(target, contract);
    const files = await localDropFiles(dir);
    if (files.length === 0) throw new GateError('bad_arguments', `${dir} holds no data files (names starting with _ or . are not data)`);
    await checkDropFormats(dir, files, contract, contractFile);
    sides.push({ contractFile, contract, dir, target, layout, address, files });
  }
  const [a, b] = sides as [Side, Side];
  if (a.contract.name !== b.contract.name || a.contract.version.major === b.contract.version.major) {
    throw new GateError('bad_arguments', `a linked drop writes one dataset under two majors; ${a.contractFile} is ${datasetName(a.contract)} and ${b.contractFile} is ${datasetName(b.contract)}. Pass the v<N> and v<N+1> contracts of one dataset`);
  }
  return [a, b];
}

async function awaitSide(store: ObjectStore, options: DropOptions, side: Side, dropped: { marker: string; markerEtag: string }, known: ReadonlySet<string>, io: CliIo): Promise<DropVerdict> {
  const identity = await identifyDrop(store, dropped.marker, dropped.markerEtag, known);
  const awaited = await awaitOutcome(store, side.layout, side.address, identity, { timeoutMs: options.timeoutMs, progress: (line) => io.stderr(`${line}\n`) });
  return dropVerdict(awaited, {
    location: store.location, layout: side.layout, marker: `s3://${side.target.bucket}/${dropped.marker}`, dataset: datasetName(side.contract), partition: side.address.partition, timeoutMs: options.timeoutMs,
  });
}
