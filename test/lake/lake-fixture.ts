import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';

export const DECIDED = '2026-11-30T05:00:00Z';

/**
 * What the gate leaves for a publish, written directly: the data files, then a `_SUCCESS` in the
 * shape of lib/gate/success-manifest.ts listing them with their sizes and ETags.
 */
export async function publish(store: ObjectStore, dataset: string, partition: string, rows: number, files: readonly { name: string; bytes: Uint8Array | string }[] = []): Promise<string> {
  const prefix = `published/${dataset}/${partition}/`;
  const listed = [];
  for (const file of files) {
    const { etag } = await store.put(`${prefix}${file.name}`, file.bytes);
    listed.push({ key: `${prefix}${file.name}`, size: typeof file.bytes === 'string' ? Buffer.byteLength(file.bytes) : file.bytes.length, etag });
  }
  const manifest = {
    format: 'contract-gate/success@1',
    contract: { name: dataset.split('/')[0], version: '1.0.0' },
    partition,
    attempt: `20261130T050000Z-${partition.replace(/\W/g, '').slice(-8)}`,
    decided_at: DECIDED,
    rows,
    files: listed,
    checks: { status: 'pass', violations: 0, warnings: [], checked_at: DECIDED },
  };
  await store.put(`${prefix}_SUCCESS`, `${JSON.stringify(manifest, null, 2)}\n`);
  return `${prefix}_SUCCESS`;
}

/** A native contract of a small dimension, `name` at `version`, in `format`. */
export function dimensionYaml(name: string, version: string, format: 'parquet' | 'csv' | 'jsonl', extra = ''): string {
  return `name: ${name}
version: ${version}
status: active
owner: { team: crm, notify: [crm@example.com] }
produces: { format: ${format}, partition: "dt={ds}" }
schema:
  grain: [customer_id]
  columns:
    - { name: customer_id, type: int64, required: true }
    - { name: email, type: string }
compat: { mode: backward }
${extra}`;
}

export function loadYaml(text: string, file = 'contract.yaml'): Contract {
  const { contract, problems } = parseContract(text, file);
  if (!contract) throw new Error(problems.map((p) => p.message).join('\n'));
  return contract;
}

/** The store with the key of every body read noted. */
export function watchReads(store: ObjectStore): { store: ObjectStore; reads: Set<string> } {
  const reads = new Set<string>();
  const read: ObjectStore['read'] = async (key, start, end, options) => {
    reads.add(key);
    return store.read(key, start, end, options);
  };
  return { reads, store: { ...store, read } };
}
