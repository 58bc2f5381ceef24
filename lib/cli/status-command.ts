import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { parseLakeAddress, prefixedLake } from '../lake/lake-address.js';
import { registryContracts } from '../registry/registry-contracts.js';
import { readLakeStatus } from '../status/read-lake-status.js';
import { baseLinks, consoleLinks, endpointLinks, fileLinks, type LinkStyle } from '../status/status-links.js';
import { statusPage } from '../status/status-page.js';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { localObjectStore } from '../storage/local-object-store.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { openProbeLake, type OpenLake } from './probe-lake.js';
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
  const lake = await openStatusLake(values.from, { endpoint: values.endpoint, linkBase: values['link-base'], out: values.out, warn: io.stderr });
  try {
    const contracts = await statusContracts(lake, values.contracts, loadOptionsFrom(values), io.stderr);
    const status = await readLakeStatus(lake.store, { now, contracts, layout: lake.layout });
    await writeOut(values.out, statusPage(status, { links: lake.links }), 'status page');
    const cells = status.datasets.reduce((sum, d) => sum + d.cells.length, 0);
    io.stdout(`wrote the status of ${lake.description} to ${values.out}: ${status.datasets.length} dataset versions, ${cells} partitions, ${status.notices.length} notifications\n`);
  } finally {
    await lake.close();
  }
  return EXIT.ok;
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
  if (await isServeDir(address.path)) {
    const served = await readServeEndpoint(address.path);
    const lake = await openProbeLake({ dir: address.path, dirGiven: true });
    if (!served && !base) options.warn(`no serve is running on ${address.path}: the page links to ${SERVE_ORIGIN}, where \`contract-gate serve --dir ${address.path}\` serves this lake (or pass --link-base)`);
    const bucket = served?.bucket ?? 'lake';
    return { ...lake, links: base ?? endpointLinks(bucket, served?.endpoint ?? SERVE_ORIGIN), ...prefixedLake('') };
  }
  if (!(await stat(address.path).catch(() => undefined))?.isDirectory()) {
    throw new GateError('path_not_found', `--from ${address.path}: no such directory; give the directory \`serve --dir\` keeps (./.lake by default), a directory laid out like the bucket, or s3://<bucket>`, { context: { path: address.path } });
  }
  const links = base ?? fileLinks(resolve(address.path), dirname(resolve(options.out)));
  return { store: localObjectStore({ root: address.path }), description: address.path, close: async () => {}, links, ...prefixedLake('') };
}

async function isServeDir(path: string): Promise<boolean> {
  return (await stat(join(path, 'buckets')).catch(() => undefined))?.isDirectory() === true || (await stat(join(path, 'serve.json')).catch(() => undefined)) !== undefined;
}

/** The registry's contracts, and from --contracts those of dataset versions it lacks. */
async function statusContracts(lake: StatusLake, dir: string | undefined, loadOptions: ReturnType<typeof loadOptionsFrom>, warn: (text: string) => void): Promise<Contract[]> {
  const registered = (await registryContracts(lake.store, { prefix: lake.registryPrefix, loadOptions, refreshMs: 0, warn }).current()).all();
  if (dir === undefined) return [...registered];
  const known = new Set(registered.map((c) => `${c.name}/v${c.version.major}`));
  const files = await loadContractDirectory(dir, loadOptions);
  return [...registered, ...files.all().filter((c) => !known.has(`${c.name}/v${c.version.major}`))];
}
