import { matchPartition } from '../contract/partition-template.js';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { DEFAULT_LAYOUT, parseMarkerKey, stagingPrefix, type DropAddress, type GateLayout } from '../gate/gate-layout.js';

/** `drop`'s options, parsed (drop-command.ts); a linked drop (linked-drop.ts) reads them too. */
export interface DropOptions {
  readonly contract: string;
  readonly to: string;
  readonly dir: string;
  /** A linked (dual-write) drop: every contract and its directory, in the order given (contract/dir above are the first). */
  readonly linked?: { readonly contracts: readonly string[]; readonly dirs: readonly string[] };
  readonly endpoint?: string;
  /** The gate's registry prefix, or NO_REGISTRY. */
  readonly registry: string;
  readonly wait: boolean;
  readonly timeoutMs: number;
  readonly format: 'text' | 'json';
}

export interface DropTarget {
  readonly bucket: string;
  /** Where the files and the marker go, ending in `/`. */
  readonly prefix: string;
}

/**
 * `--to s3://bucket` puts the drop under the layout's staging prefix, the partition path taken
 * from the end of the local directory's path (`.../dt=2026-11-30`); `--to s3://bucket/<prefix>/`
 * puts it exactly there.
 */
export function dropTarget(to: string, dir: string, contract: Contract): DropTarget {
  const target = /^s3:\/\/([^/]+)\/?(.*)$/.exec(to);
  if (!target) throw new GateError('bad_arguments', `--to must be s3://<bucket>[/<prefix>/], not "${to}"`);
  const [, bucket = '', explicit = ''] = target;
  if (explicit) return { bucket, prefix: explicit.replace(/\/?$/, '/') };
  const address = { dataset: contract.name, major: contract.version.major, partition: partitionOf(dir, contract.produces.partition) };
  return { bucket, prefix: stagingPrefix(DEFAULT_LAYOUT, address) };
}

/** The last segments of a local path that fit the contract's partition template. */
function partitionOf(dir: string, template: string): string {
  const segments = dir.replace(/[\\/]+$/, '').split(/[\\/]/);
  const depth = template.split('/').length;
  const partition = segments.slice(-depth).join('/');
  if (!matchPartition(template, partition)) {
    throw new GateError('bad_arguments', `${dir} does not end in a partition path like "${template}"; name the directory after its partition or pass --to s3://<bucket>/<prefix>/`);
  }
  return partition;
}

/**
 * The partition the gate will see the marker as, and the layout its decision is kept under.
 * A custom prefix keeps the default layout below its staging part (`<staging><name>/v<major>/`),
 * as a gate deployed with GATE_STAGING_PREFIX has it. Checked before the upload: a marker the
 * gate would ignore gets no decision, so waiting for one could only time out.
 */
export function waitedAddress(target: DropTarget, contract: Contract): { readonly layout: GateLayout; readonly address: DropAddress } {
  const needle = `${contract.name}/v${contract.version.major}/`;
  const found = target.prefix.startsWith(needle) ? 0 : target.prefix.indexOf(`/${needle}`) + 1;
  const layout = { ...DEFAULT_LAYOUT, staging: target.prefix.slice(0, found) };
  const address = found > 0 || target.prefix.startsWith(needle) ? parseMarkerKey(layout, `${target.prefix}${layout.marker}`) : undefined;
  if (!address) {
    throw new GateError('bad_arguments', `waiting for the gate needs the drop under <staging prefix>${needle}<partition>/, where the gate looks for markers; s3://${target.bucket}/${target.prefix} is not. Fix --to, or pass --no-wait to upload there anyway`);
  }
  return { layout, address };
}

export function droppedLine(files: readonly { readonly relative: string }[], target: DropTarget, marker: string): string {
  return `dropped ${files.length} ${files.length === 1 ? 'file' : 'files'} into s3://${target.bucket}/${target.prefix}, then s3://${target.bucket}/${marker}`;
}

export function datasetName(contract: Contract): string {
  return `${contract.name} v${contract.version.major}`;
}
