import { parseArgs } from 'node:util';
import { matchPartition } from '../contract/partition-template.js';
import { GateError } from '../errors.js';
import { dropPartition } from '../gate/drop-partition.js';
import { DEFAULT_LAYOUT, stagingPrefix } from '../gate/gate-layout.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { requireContract } from './contract-file.js';
import { localDropFiles } from './local-drop-files.js';
import { DROP_USAGE } from './usage.js';

/**
 * `drop`: what a producer job calls. Uploads a partition's data files, then the `_READY`
 * manifest. With `--to s3://bucket` the staging prefix follows the layout; the partition path
 * is taken from the end of the local directory's path, e.g. `.../dt=2026-11-30`.
 */
export async function dropCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { contract: { type: 'string' }, to: { type: 'string' }, endpoint: { type: 'string' } } });
  const [dir] = positionals;
  if (!values.contract || !values.to || !dir || positionals.length > 1) throw new GateError('bad_arguments', `usage: ${DROP_USAGE}`);
  const contract = await requireContract(values.contract, io.stderr);
  const target = /^s3:\/\/([^/]+)\/?(.*)$/.exec(values.to);
  if (!target) throw new GateError('bad_arguments', `--to must be s3://<bucket>[/<prefix>/], not "${values.to}"`);
  const [, bucket = '', explicit = ''] = target;
  const prefix = explicit ? explicit.replace(/\/?$/, '/') : stagingPrefix(DEFAULT_LAYOUT, { dataset: contract.name, major: contract.version.major, partition: partitionOf(dir, contract.produces.partition) });
  const files = await localDropFiles(dir);
  if (files.length === 0) throw new GateError('bad_arguments', `${dir} holds no data files`);
  const store = s3ObjectStore({ client: createS3Client({ endpoint: values.endpoint || undefined }), bucket });
  const { marker } = await dropPartition(store, DEFAULT_LAYOUT, prefix, files);
  io.stdout(`dropped ${files.length} ${files.length === 1 ? 'file' : 'files'} into s3://${bucket}/${prefix}, then s3://${bucket}/${marker}\n`);
  return EXIT.ok;
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
