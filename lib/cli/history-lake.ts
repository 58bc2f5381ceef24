import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { PlanFacts } from '../checks/plan-facts.js';
import type { LoadOptions } from '../contract/contract-defaults.js';
import type { Contract } from '../contract/model.js';
import { renderPartition } from '../contract/partition-template.js';
import { GateError } from '../errors.js';
import { parseLakeAddress, prefixedLake } from '../lake/lake-address.js';
import { needsLake, readPlanFacts, type Lake } from '../lake/plan-facts.js';
import { referenceContracts } from '../lake/reference-contracts.js';
import { localObjectStore } from '../storage/local-object-store.js';
import type { OpenLake } from './probe-lake.js';

// `validate --history`: the lake a local run reads published history and referenced keys from.

export interface LakeRequest {
  /** `--history`: a directory or s3://bucket[/prefix]. */
  readonly lake: string;
  readonly partition: string | undefined;
  readonly contractFile: string;
  readonly paths: readonly string[];
  readonly loadOptions: LoadOptions;
  readonly warn: (text: string) => void;
}

/**
 * `--history`: what the contract's rules that compare with published data need, read before
 * the checks. A contract with no such rule opens no lake. Referenced contracts come from the
 * lake's registry, or from the files beside the --contract file for datasets it does not hold.
 */
export async function lakeFacts(contract: Contract, request: LakeRequest): Promise<PlanFacts | undefined> {
  const partition = checkedPartition(contract, request);
  if (!needsLake(contract)) return undefined;
  const lake = await openHistoryLake(request.lake);
  try {
    const sources = { registryPrefix: lake.registryPrefix, dir: dirname(request.contractFile), loadOptions: request.loadOptions, warn: request.warn };
    return await readPlanFacts(lake, await referenceContracts(lake.store, contract, sources), contract, partition);
  } finally {
    await lake.close();
  }
}

/** The partition being validated (validate reads it from --partition or the paths); volume_vs_history cannot do without one. */
function checkedPartition(contract: Contract, request: LakeRequest): string | undefined {
  const template = contract.produces.partition;
  if (request.partition !== undefined || !contract.sla?.volumeVsHistory) return request.partition;
  throw new GateError('bad_arguments', `${contract.name} has sla.volume_vs_history, which compares the partition with those published before it, but ${request.paths.join(', ')} ${request.paths.length === 1 ? 'does' : 'do'} not end in one partition path like "${template}": pass --partition, e.g. --partition ${renderPartition(template, { ds: '2026-11-30', hh: '06' })}`);
}

/** A lake and where the gate's layout and registry sit in it. */
type HistoryLake = OpenLake & Lake & { readonly registryPrefix: string };

/**
 * `s3://bucket[/prefix]` through the usual credential chain (AWS_ENDPOINT_URL_S3 names another
 * endpoint); a directory `serve --dir` keeps as probe opens it (through the running serve, or
 * its files); any other directory as the bucket itself.
 */
async function openHistoryLake(text: string): Promise<HistoryLake> {
  const address = parseLakeAddress(text);
  const nothingToClose = async () => {};
  if (address.kind === 's3') {
    // Loaded here: the SDK is a large part of a local run's start-up, and a directory lake never needs it.
    const [{ createS3Client }, { s3ObjectStore }] = await Promise.all([import('../storage/s3-client.js'), import('../storage/s3-object-store.js')]);
    const store = s3ObjectStore({ client: createS3Client({}), bucket: address.bucket });
    return { store, description: text, close: nothingToClose, ...prefixedLake(address.prefix) };
  }
  const root = prefixedLake('');
  if (await isServeDir(address.path)) {
    // Loaded here for the same reason: reading a serve directory takes the SDK and the emulator.
    const { openProbeLake } = await import('./probe-lake.js');
    return { ...(await openProbeLake({ dir: address.path, dirGiven: true })), ...root };
  }
  if (!(await isDirectory(address.path))) throw new GateError('path_not_found', `--history ${address.path}: no such directory`, { context: { path: address.path } });
  return { store: localObjectStore({ root: address.path }), description: address.path, close: nothingToClose, ...root };
}

/** The directory `serve --dir` keeps: its emulator's `buckets/`, or the `serve.json` of a running serve. */
export async function isServeDir(path: string): Promise<boolean> {
  return (await isDirectory(join(path, 'buckets'))) || (await stat(join(path, 'serve.json')).catch(() => undefined)) !== undefined;
}

export async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}
