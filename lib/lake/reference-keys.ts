import { MAX_REFERENCE_KEYS, type ReferenceKeys } from '../checks/plan-facts.js';
import type { ColumnReference, Contract } from '../contract/model.js';
import type { ContractRegistry } from '../gate/contract-registry.js';
import { publishedPrefix, type GateLayout } from '../gate/gate-layout.js';
import type { ObjectStore } from '../storage/object-store.js';
import { columnKeys } from './column-keys.js';
import { publishedLocation, publishedPartitions } from './published-partitions.js';
import { referencedContract } from './referenced-contract.js';
import { isProblem, publishedFiles, readSuccessManifest } from '../gate/success-record.js';

/**
 * The keys a `references` rule looks values up in: every non-null value of the referenced
 * column in the referenced dataset's latest published partition (greatest partition time among
 * those with a `_SUCCESS`), or the one it names. Exactly the files that `_SUCCESS` lists are
 * read, each pinned to its ETag, so the keys are what consumers of that publish read. Anything
 * in the way (no contract, nothing published, a column missing, more than `limit` keys) is
 * `unavailable` with the reason; only storage failures are thrown.
 */
export async function readReferenceKeys(store: ObjectStore, layout: GateLayout, contracts: ContractRegistry, ref: ColumnReference, limit = MAX_REFERENCE_KEYS): Promise<ReferenceKeys> {
  const contract = referencedContract(contracts, ref);
  if ('unavailable' in contract) return { source: `${store.location}/${layout.published}${ref.contract}/`, unavailable: contract.unavailable };
  const dataset = { dataset: contract.name, major: contract.version.major };
  const root = publishedLocation(store, layout, dataset);
  const column = contract.schema.columns.find((c) => c.name === ref.column);
  if (!column) return { source: root, unavailable: `${contract.name} ${contract.version.text} has no column ${ref.column}` };
  const chosen = await chosenPartition(store, layout, contract, ref);
  if ('unavailable' in chosen) return { source: root, unavailable: chosen.unavailable };
  const source = `${root}${chosen.partition}/`;
  const manifest = await readSuccessManifest(store, chosen.success);
  if (manifest === undefined) return { source, unavailable: absent(store, contract, ref, chosen.success) };
  const files = isProblem(manifest) ? manifest : publishedFiles(manifest);
  if (isProblem(files)) return { source, unavailable: files.problem };
  const text = { ...(contract.produces.csv ? { csv: contract.produces.csv } : {}), columns: contract.schema.columns.map((c) => c.name) };
  const keys = await columnKeys(store, files, contract.produces.format, column, limit, text);
  return 'keys' in keys ? { source, keys: keys.keys } : { source, unavailable: keys.unavailable };
}

type Chosen = { readonly partition: string; readonly success: string } | { readonly unavailable: string };

/** The partition named, else the latest with a `_SUCCESS`; only the latest needs a listing. */
async function chosenPartition(store: ObjectStore, layout: GateLayout, contract: Contract, ref: ColumnReference): Promise<Chosen> {
  const dataset = { dataset: contract.name, major: contract.version.major };
  const root = publishedLocation(store, layout, dataset);
  if (ref.partition !== undefined) return { partition: ref.partition, success: `${publishedPrefix(layout, { ...dataset, partition: ref.partition })}${layout.success}` };
  const latest = (await publishedPartitions(store, layout, dataset, contract.produces.partition)).at(-1);
  return latest ?? { unavailable: `no partition of ${contract.name} v${contract.version.major} is published: there is no ${layout.success} under ${root}` };
}

/** A named partition never published; the latest, removed since the listing (a backfill under way). */
function absent(store: ObjectStore, contract: Contract, ref: ColumnReference, success: string): string {
  const where = `${store.location}/${success}`;
  if (ref.partition !== undefined) return `${contract.name} v${contract.version.major} ${ref.partition} is not published: ${where} does not exist`;
  return `${where} went away while it was read (a backfill under way?)`;
}
