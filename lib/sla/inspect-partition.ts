import { parseTemporal } from '../contract/temporal.js';
import { datasetPath, publishedPrefix, stagingPrefix, type DropAddress, type GateLayout } from '../gate/gate-layout.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { stagedDetail } from './staged-detail.js';

/** Where a partition stands, read from the bucket: what a page needs to say. */
export interface PartitionInspection {
  readonly published?: { readonly at: number; readonly attempt: string; readonly newest?: number };
  readonly detail: string;
}

export async function inspectPartition(store: ObjectStore, layout: GateLayout, address: DropAddress): Promise<PartitionInspection> {
  const success = await readJsonObject(store, `${publishedPrefix(layout, address)}${layout.success}`);
  if (success) return publishedState(success);
  const staged = await stagedState(store, layout, address);
  if (staged) return { detail: staged };
  const quarantined = await quarantinedState(store, layout, address);
  if (quarantined) return { detail: quarantined };
  return { detail: `never arrived: nothing was dropped under ${stagingPrefix(layout, address)}` };
}

function publishedState(success: Record<string, unknown>): PartitionInspection {
  const at = parseTemporal(String(success.decided_at ?? ''), 'timestamp') ?? 0;
  const newest = success.newest as { value?: string } | undefined;
  const newestAt = newest?.value === undefined ? undefined : parseTemporal(newest.value, 'timestamp');
  const attempt = String(success.attempt ?? 'unknown');
  return { published: { at, attempt, ...(newestAt === undefined ? {} : { newest: newestAt }) }, detail: `published at ${String(success.decided_at)} (attempt ${attempt})` };
}

async function stagedState(store: ObjectStore, layout: GateLayout, address: DropAddress): Promise<string | undefined> {
  const prefix = stagingPrefix(layout, address);
  let files = 0;
  let marker = false;
  for await (const object of store.list(prefix)) {
    if (object.key === `${prefix}${layout.marker}`) marker = true;
    else files += 1;
  }
  return stagedDetail(layout, prefix, { files, marker });
}

/** The newest attempt's report summary; attempt folders sort by the time of their decision. */
async function quarantinedState(store: ObjectStore, layout: GateLayout, address: DropAddress): Promise<string | undefined> {
  const root = `${layout.quarantine}${datasetPath(address)}`;
  let latest: string | undefined;
  for await (const object of store.list(root)) {
    if (object.key.endsWith(`/${layout.report}`) && (latest === undefined || object.key > latest)) latest = object.key;
  }
  if (!latest) return undefined;
  const report = await readJsonObject(store, latest);
  const attempt = latest.slice(root.length, -layout.report.length - 1);
  return `quarantined (attempt ${attempt}): ${String(report?.summary ?? 'see the report')}; report at ${latest}`;
}

async function readJsonObject(store: ObjectStore, key: string): Promise<Record<string, unknown> | undefined> {
  const bytes = await readWhole(store, key);
  if (!bytes) return undefined;
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
