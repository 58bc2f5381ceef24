import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { readPointer } from '../registry/registry-objects.js';
import type { ObjectStore } from '../storage/object-store.js';

/** The gate's state expires (30 days by default): a record older than this is written again to stay. */
const REFRESH_AFTER_MS = 7 * 86_400_000;

/**
 * Since when the probe expects partitions of a contract's major: the moment the gate first knew
 * it, so a contract published today pages for nothing due yesterday. Kept at `_gate/expected/<name>/v<major>.json` by
 * the first probe run that sees the major (a conditional create, so the earliest look wins and a
 * later minor version does not move it), as the earlier of that run's clock and the registration
 * time the registry records (the contract's own, or, for one read from files by a caller that
 * names the bucket's registry, that registry's for the same name and major). A contract bundled with the functions is first seen by the first
 * probe run after the deploy. The record is rewritten weekly so the state's expiry never takes
 * it: recreated later, it would say the contract is new and hide the day's missed partitions.
 */
export async function expectedSince(store: ObjectStore, layout: GateLayout, contract: Contract, now: number, registryPrefix?: string): Promise<number> {
  const key = `${layout.state}expected/${contract.name}/v${contract.version.major}.json`;
  const recorded = await readSince(store, key);
  if (recorded !== undefined) {
    if (now - recorded.modified > REFRESH_AFTER_MS) await keepAlive(store, key, recorded);
    return recorded.since;
  }
  const inLake = contract.origin?.registered_at === undefined && registryPrefix !== undefined ? await registeredInLake(store, registryPrefix, contract) : undefined;
  const registered = Date.parse(contract.origin?.registered_at ?? inLake ?? '');
  const since = Number.isNaN(registered) ? now : Math.min(now, registered);
  try {
    await store.put(key, `${JSON.stringify({ since: new Date(since).toISOString(), contract: contract.name, major: contract.version.major })}\n`, { ifNoneMatch: '*', contentType: 'application/json' });
    return since;
  } catch (error) {
    // Another probe run recorded it first: its moment stands.
    if (error instanceof GateError && error.code === 'precondition_failed') return (await readSince(store, key))?.since ?? since;
    throw error;
  }
}

/**
 * When the bucket's registry says the major's version in force was registered, if it holds one.
 * A hint only: a caller that may not read the registry (a bundled-contracts gate) has the first
 * sighting instead.
 */
async function registeredInLake(store: ObjectStore, prefix: string, contract: Contract): Promise<string | undefined> {
  try {
    const read = await readPointer(store, prefix, contract.name, contract.version.major);
    return read?.pointer.name === contract.name ? read.pointer.registered_at || undefined : undefined;
  } catch (error) {
    if (error instanceof GateError) return undefined;
    throw error;
  }
}

interface Recorded {
  readonly since: number;
  readonly modified: number;
  readonly etag: string;
  readonly body: Uint8Array;
}

async function readSince(store: ObjectStore, key: string): Promise<Recorded | undefined> {
  const info = await store.head(key);
  if (!info) return undefined;
  const body = await store.read(key, 0, info.size, { ifMatch: info.etag });
  try {
    const since = Date.parse((JSON.parse(new TextDecoder().decode(body)) as { since?: unknown }).since as string);
    return Number.isNaN(since) ? undefined : { since, modified: info.lastModified.getTime(), etag: info.etag, body };
  } catch {
    return undefined;
  }
}

async function keepAlive(store: ObjectStore, key: string, recorded: Recorded): Promise<void> {
  try {
    await store.put(key, recorded.body, { ifMatch: recorded.etag, contentType: 'application/json' });
  } catch (error) {
    // Another run refreshed or replaced it meanwhile: either way it is fresh.
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
  }
}
