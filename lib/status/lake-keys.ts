import type { GateLayout } from '../gate/gate-layout.js';

/**
 * Reading the keys the gate writes back into dataset, major version and partition. A partition
 * path may have several segments (`dt=2026-11-30/hr=06`), so each root is read by what ends its
 * keys: the `_SUCCESS`, the attempt folder, the claim file, or the contract's template depth.
 */
export interface PartitionRef {
  readonly dataset: string;
  readonly major: number;
  readonly partition: string;
}

/** A key below `<root><dataset>/v<major>/`: the segments after the major. */
export interface DatasetKey {
  readonly dataset: string;
  readonly major: number;
  readonly rest: readonly string[];
}

// As gate-layout.ts reads a marker's major, and quarantine-attempt.ts an attempt id (neither exports its pattern).
const MAJOR = /^v(0|[1-9]\d{0,5})$/;
const ATTEMPT = /^\d{8}T\d{6}Z-[0-9a-f]{8}$/;

/** Undefined for a key outside the root, without a `v<major>`, or with an empty segment (a console's folder object). */
export function datasetKey(root: string, key: string): DatasetKey | undefined {
  if (!key.startsWith(root)) return undefined;
  const [dataset, major, ...rest] = key.slice(root.length).split('/');
  if (!dataset || !major || !MAJOR.test(major) || rest.length === 0 || rest.some((segment) => segment === '')) return undefined;
  return { dataset, major: Number(major.slice(1)), rest };
}

/** `published/<ds>/v<m>/<partition>/_SUCCESS`; undefined for the data files beside it. */
export function successKey(layout: GateLayout, key: string): PartitionRef | undefined {
  const found = datasetKey(layout.published, key);
  if (!found || found.rest.length < 2 || found.rest.at(-1) !== layout.success) return undefined;
  return { dataset: found.dataset, major: found.major, partition: found.rest.slice(0, -1).join('/') };
}

export interface AttemptKey extends PartitionRef {
  readonly attempt: string;
  /** The path inside the attempt folder, e.g. `_REPORT.json`. */
  readonly file: string;
}

/** `quarantine/<ds>/v<m>/<partition>/<attempt>/<file>`: the first segment shaped like an attempt id ends the partition. */
export function attemptKey(layout: GateLayout, key: string): AttemptKey | undefined {
  const found = datasetKey(layout.quarantine, key);
  if (!found) return undefined;
  const at = found.rest.findIndex((segment, i) => i > 0 && ATTEMPT.test(segment));
  if (at < 0 || at === found.rest.length - 1) return undefined;
  return { dataset: found.dataset, major: found.major, partition: found.rest.slice(0, at).join('/'), attempt: found.rest[at]!, file: found.rest.slice(at + 1).join('/') };
}

export interface StagedKey extends PartitionRef {
  readonly file: string;
}

/**
 * `staging/<ds>/v<m>/<partition>/<file>`, the partition as deep as the contract's template; without
 * one (no contract), the file's folder. Undefined for a key too shallow to name a partition.
 */
export function stagedKey(layout: GateLayout, key: string, depthOf: (dataset: string, major: number) => number | undefined): StagedKey | undefined {
  const found = datasetKey(layout.staging, key);
  if (!found) return undefined;
  const depth = depthOf(found.dataset, found.major) ?? found.rest.length - 1;
  if (depth < 1 || found.rest.length <= depth) return undefined;
  return { dataset: found.dataset, major: found.major, partition: found.rest.slice(0, depth).join('/'), file: found.rest.slice(depth).join('/') };
}

/** `<root><ds>/v<m>/<partition>/<name>.json`: the notice, SLA and abandoned-drop claims. */
export function claimKey(root: string, key: string): (PartitionRef & { readonly name: string }) | undefined {
  const found = datasetKey(root, key);
  const file = found?.rest.at(-1);
  if (!found || found.rest.length < 2 || !file?.endsWith('.json')) return undefined;
  return { dataset: found.dataset, major: found.major, partition: found.rest.slice(0, -1).join('/'), name: file.slice(0, -'.json'.length) };
}

/** `<root><ds>/<version>/<n>d.json`: a sunset reminder's claim (see sunset-reminders.ts). */
export function sunsetKey(root: string, key: string): { readonly dataset: string; readonly version: string } | undefined {
  if (!key.startsWith(root)) return undefined;
  const [dataset, version, file, ...more] = key.slice(root.length).split('/');
  if (!dataset || !version || !MAJOR.test(version) || !file || !/^\d+d\.json$/.test(file) || more.length > 0) return undefined;
  return { dataset, version };
}
