import { setTimeout as sleep } from 'node:timers/promises';
import type { FileVersion } from './data-pool.js';
import type { Lake } from './lake-client.js';
import type { TrialPlan } from './trial-plan.js';

export const STAGING = (partition: string) => `staging/orders/v1/${partition}/`;

/** A `_READY` put: its ETag, and its LastModified when a HEAD right after still saw it. */
export interface MarkerPut {
  readonly etag: string;
  readonly body: string;
  readonly lastModified?: string;
  /** When the PUT returned (epoch ms, this machine's clock). */
  readonly putAt: number;
  readonly why: 'drop-1' | 'drop-2' | 'reput';
}

export type KeyOp = { readonly name: string; readonly kind: 'put'; readonly version: FileVersion } | { readonly name: string; readonly kind: 'delete' };

/** What the producer really did, in order: the checker's ground truth. */
export interface Ledger {
  readonly ops: KeyOp[];
  readonly markers: MarkerPut[];
}

export interface ProducerEnv {
  readonly lake: Lake;
  /** SIGKILL serve and restart it (shared by every trial of the run). */
  readonly kill: () => Promise<unknown>;
}

/**
 * Runs a trial's producer: the initial files, the first marker at t = 0, then every step no
 * earlier than its time. Steps run one at a time, so the last write of every key is known; a
 * step that meets a killed endpoint is repeated until it lands (see Lake).
 */
export async function runProducer(env: ProducerEnv, plan: TrialPlan): Promise<Ledger> {
  const ledger: Ledger = { ops: [], markers: [] };
  const prefix = STAGING(plan.partition);
  const put = async (version: FileVersion) => {
    await env.lake.put(`${prefix}${version.name}`, version.bytes);
    ledger.ops.push({ name: version.name, kind: 'put', version });
  };
  const marker = async (body: string, why: MarkerPut['why']) => {
    const etag = await env.lake.put(`${prefix}_READY`, body);
    const putAt = Date.now();
    const seen = await env.lake.head(`${prefix}_READY`);
    ledger.markers.push({ etag, body, why, putAt, ...(seen?.etag === etag ? { lastModified: seen.lastModified } : {}) });
  };
  for (const version of plan.initial) await put(version);
  await marker(plan.firstMarker, 'drop-1');
  const t0 = Date.now();
  const kills: Promise<unknown>[] = [];
  for (const step of plan.steps) {
    const wait = t0 + step.at - Date.now();
    if (wait > 0) await sleep(wait);
    if (step.kind === 'put') await put(step.version);
    else if (step.kind === 'delete') {
      await env.lake.delete(`${prefix}${step.name}`);
      ledger.ops.push({ name: step.name, kind: 'delete' });
    } else if (step.kind === 'marker') await marker(step.body, 'drop-2');
    else if (step.kind === 'reput') await marker(step.body, 'reput');
    else kills.push(env.kill());
  }
  await Promise.all(kills);
  return ledger;
}

/** The last thing the producer did to each name: a version it wrote (to be kept) or a delete. */
export function lastOps(ledger: Ledger): Map<string, KeyOp> {
  const last = new Map<string, KeyOp>();
  for (const op of ledger.ops) last.set(op.name, op);
  return last;
}
