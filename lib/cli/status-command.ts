import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { parseLakeAddress, prefixedLake } from '../lake/lake-address.js';
import { registryContracts } from '../registry/registry-contracts.js';
import { readLakeStatus } from '../status/read-lake-status.js';
import { baseLinks, consoleLinks, endpointLinks, fileLinks, gateLinks, type LinkStyle } from '../status/status-links.js';
import { statusPage } from '../status/status-page.js';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { localObjectStore } from '../storage/local-object-store.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { openProbeLake, type OpenLake } from './probe-lake.js';
import { isDirectory, isServeDir } from './history-lake.js';
import { readServeEndpoint } from './serve-endpoint-file.js';
import { COMMAND_HELP, STATUS_USAGE } from './usage.js';
import { writeOut } from './write-out.js';

/** Where `serve` listens unless told otherwise: where a page made from its directory links to. */
const SERVE_ORIGIN = 'http://127.0.0.1:4566';

interface StatusLake extends OpenLake {
  readonly layout: GateLayout;
  readonly registryPrefix: string;
  readonly links: LinkStyle;
}

/**
 * `status`: the page `serve` shows at `/_gate/`, written to a file from any lake, local or on S3:
 * it reads only what the gate writes, so a scheduled job can publish it beside the bucket.
 */
export async function statusCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: COMMAND_HELP.status.options });
  if (values.out === undefined) throw new GateError('bad_arguments', `--out is required: the file to write the page to\nusage: ${STATUS_USAGE}`);
  const now = parseNow(values.now);
  await checkOutFolder(values.out);
  const lake = await openStatusLake(values.from, { endpoint: values.endpoint, linkBase: values['link-base'], out: values.out, warn: io.stderr });
  try {
    const contracts = await statusContracts(lake, values.contracts, loadOptionsFrom(values), io.stderr);
    // The lake as given (s3://lake/team-a), which the store's own location (s3://lake) would not say.
    const status = { ...(await readLakeStatus(lake.store, { now, contracts, layout: lake.layout })), location: values.from };
    if (status.datasets.length === 0) io.stderr(`${values.from} holds no contract in its registry and nothing under ${lake.layout.staging}, ${lake.layout.published} or ${lake.layout.quarantine}: is this the lake (and its prefix) the gate writes to?\n`);
    await writeOut(values.out, statusPage(status, { links: lake.links }), 'status page');
    const cells = status.datasets.reduce((sum, d) => sum + d.cells.length, 0);
    const counts = [plural(status.datasets.length, 'dataset version'), plural(cells, 'partition'), plural(status.notices.length, 'notification')];
    io.stdout(`wrote the status of ${lake.description} to ${values.out}: ${counts.join(', ')}\n`);
  } finally {
    await lake.close();
  }
  return EXIT.ok;
}

const plural = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** Before the lake is read, which on S3 may take a while: a typo in --out should not wait for it. */
async function checkOutFolder(out: string): Promise<void> {
  const folder = dirname(resolve(out));
  if (await isDirectory(folder)) return;
  throw new GateError('path_not_found', `${out}: cannot write the status page: the folder ${folder} does not exist (create it, or give --out a file in a folder that does)`, { context: { path: out } });
}

interface OpenOptions {
  readonly endpoint: string | undefined;
  readonly linkBase: string | undefined;
  readonly out: string;
  readonly warn: (text: string) => void;
}

async function openStatusLake(from: string, options: OpenOptions): Promise<StatusLake> {
  const address = parseLakeAddress(from);
  const base = options.linkBase === undefined ? undefined : baseLinks(options.linkBase);
  if (address.kind === 's3') {
    const store = s3ObjectStore({ client: createS3Client({ endpoint: options.endpoint }), bucket: address.bucket });
    const links = base ?? (options.endpoint === undefined ? consoleLinks(address.bucket) : endpointLinks(address.bucket, options.endpoint.replace(/\/+$/, '')));
    return { store, description: from, close: async () => {}, links, ...prefixedLake(address.prefix) };
  }
  if (options.endpoint !== undefined) throw new GateError('bad_arguments', `--endpoint goes with --from s3://<bucket>, not the directory ${from}`);
  if (await isServeDir(address.path)) return openServeDir(address.path, base, options.warn);
  if (!(await isDirectory(address.path))) {
    throw new GateError('path_not_found', `--from ${address.path}: no such directory; give the directory \`serve --dir\` keeps (./.lake by default), a directory laid out like the bucket, or s3://<bucket>`, { context: { path: address.path } });
  }
  const links = base ?? fileLinks(resolve(address.path), dirname(resolve(options.out)));
  return { store: localObjectStore({ root: address.path }), description: address.path, close: async () => {}, links, ...prefixedLake('') };
}

/**
 * The lake `serve --dir` keeps: through the running serve (its serve.json), or its files. Its
 * bucket is the one serve.json names, else the only one under buckets/ (`serve --bucket` may
 * have named it otherwise), else `lake`.
 */
async function openServeDir(dir: string, base: LinkStyle | undefined, warn: (text: string) => void): Promise<StatusLake> {
  const served = await readServeEndpoint(dir);
  const bucket = served?.bucket ?? (await onlyBucket(dir)) ?? 'lake';
  const lake = await openProbeLake({ dir, dirGiven: true, bucket }).catch((error: unknown) => {
    throw statusLakeError(error, dir, bucket);
  });
  if (!served && !base) warn(`no serve is running on ${dir}: the page links to ${SERVE_ORIGIN}, where \`contract-gate serve --dir ${dir}\` serves this lake (or pass --link-base)\n`);
  return { ...lake, links: base ?? gateLinks(served?.endpoint ?? SERVE_ORIGIN), ...prefixedLake('') };
}

async function onlyBucket(dir: string): Promise<string | undefined> {
  const entries = await readdir(join(dir, 'buckets'), { withFileTypes: true }).catch(() => []);
  const buckets = entries.filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name);
  return buckets.length === 1 ? buckets[0] : undefined;
}

/** probe's advice names its own options (--dir, --bucket, --endpoint for a directory); status has others. */
function statusLakeError(error: unknown, dir: string, bucket: string): unknown {
  if (!(error instanceof GateError)) return error;
  if (error.code === 'bad_arguments') {
    return new GateError('bad_arguments', `${dir} is in use by a contract-gate serve that left no serve.json (an older version?): pass --from s3://${bucket} --endpoint <its URL>`, { cause: error });
  }
  if (error.code === 'path_not_found') {
    return new GateError('path_not_found', `--from ${dir}: there is no lake in it (no ${join(dir, 'buckets', bucket)}): start \`contract-gate serve --dir ${dir}\` once, or give a directory laid out like the bucket, or s3://<bucket> (with --endpoint <url> for a running serve)`, { cause: error, context: error.context });
  }
  return error;
}


/** The registry's contracts, and from --contracts those of dataset versions it lacks. */
async function statusContracts(lake: StatusLake, dir: string | undefined, loadOptions: ReturnType<typeof loadOptionsFrom>, warn: (text: string) => void): Promise<Contract[]> {
  const registered = (await registryContracts(lake.store, { prefix: lake.registryPrefix, loadOptions, refreshMs: 0, warn }).current()).all();
  if (dir === undefined) return [...registered];
  const known = new Set(registered.map((c) => `${c.name}/v${c.version.major}`));
  const files = await loadContractDirectory(dir, loadOptions);
  return [...registered, ...files.all().filter((c) => !known.has(`${c.name}/v${c.version.major}`))];
}
