import { parseTemporal } from '../contract/temporal.js';
import type { ObjectInfo, ObjectStore } from '../storage/object-store.js';
import type { ContractRegistry } from './contract-registry.js';
import { isChangeError } from './pinned-copy.js';
import { markerKey, parseMarkerKey, type DropAddress, type GateLayout } from './gate-layout.js';
import { MAX_MARKER_BYTES } from './read-drop.js';

/**
 * A dual-write drop (seed 000, "Dual-write when you must bump"): the producer writes the same
 * partition under two majors, and each `_READY` manifest names the other one,
 * `"linked": {"major": 2, "partition": "dt=2026-11-29"}`. The two are published together when
 * both pass, or quarantined together (see settle-pair.ts).
 */
export interface DropLink {
  readonly major: number;
  readonly partition: string;
}

/** The sibling a manifest names; undefined when it names none; a string says what is wrong with the naming. */
export function readLink(text: string): DropLink | string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined; // not a manifest: checkManifest says so
  }
  const linked = typeof parsed === 'object' && parsed !== null ? (parsed as { linked?: unknown }).linked : undefined;
  if (linked === undefined) return undefined;
  const { major, partition } = (linked ?? {}) as { major?: unknown; partition?: unknown };
  if (!Number.isInteger(major) || (major as number) < 0 || typeof partition !== 'string' || partition === '') {
    return 'the manifest\'s "linked" needs the sibling\'s "major" (a whole number) and "partition" (its path), e.g. {"major": 2, "partition": "dt=2026-11-29"}';
  }
  return { major: major as number, partition };
}

/** What is wrong with a drop's link to its sibling, or undefined when the link is usable. */
export function linkProblem(layout: GateLayout, address: DropAddress, link: DropLink): string | undefined {
  if (link.major === address.major) return `the manifest's "linked" names v${link.major}, this drop's own major; a linked drop names the other major it is written beside`;
  if (!parseMarkerKey(layout, markerKey(layout, siblingAddress(address, link)))) return `the manifest's "linked" partition "${link.partition}" is not a safe partition path`;
  return undefined;
}

export function siblingAddress(address: DropAddress, link: DropLink): DropAddress {
  return { dataset: address.dataset, major: link.major, partition: link.partition };
}

/**
 * The marker's link to its sibling, read from its manifest; undefined for a marker that names none
 * or names one badly (the manifest check refuses those); `unread` when the read failed as a changed
 * marker does (a 412, a 409): the single-drop path then records what became of it, and refuses
 * to decide alone a marker that turns out to name a sibling (see decide-drop.ts).
 */
export async function markerLink(store: ObjectStore, layout: GateLayout, address: DropAddress, marker: ObjectInfo): Promise<DropLink | { readonly unread: unknown } | undefined> {
  if (marker.size === 0 || marker.size > MAX_MARKER_BYTES) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = await store.read(marker.key, 0, marker.size, { ifMatch: marker.etag });
  } catch (error) {
    if (isChangeError(error)) return { unread: error };
    throw error;
  }
  return usableLink(layout, address, new TextDecoder().decode(bytes));
}

export function usableLink(layout: GateLayout, address: DropAddress, text: string): DropLink | undefined {
  const link = readLink(text);
  return typeof link === 'object' && linkProblem(layout, address, link) === undefined ? link : undefined;
}

/**
 * The dual-write window ends at the older major's sunset: from then on a drop naming a sibling is
 * judged alone. Returns the note its report carries, or undefined while the window is open.
 */
export function windowClosed(contracts: ContractRegistry, address: DropAddress, link: DropLink, now: number): string | undefined {
  const older = Math.min(address.major, link.major);
  const contract = contracts.find(address.dataset, older);
  const sunset = contract?.sunset === undefined ? undefined : parseTemporal(contract.sunset, 'date');
  if (sunset === undefined || now < sunset) return undefined;
  return `judged alone, not with its linked sibling ${address.dataset} v${link.major} ${link.partition}: the dual-write window ended at ${address.dataset} v${older}'s sunset ${contract!.sunset}`;
}

export function describeAddress(address: DropAddress): string {
  return `${address.dataset} v${address.major} ${address.partition}`;
}
