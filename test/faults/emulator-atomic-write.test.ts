import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { readWhole, type ObjectStore } from '../../lib/storage/object-store.js';

/**
 * A bug the fault harness's `_SUCCESS` reader found in the local endpoint, not in the gate: S3
 * makes a PUT or CopyObject visible whole, but s3rver creates the object's file and writes into
 * it in place, so a consumer polling `_SUCCESS` on `contract-gate serve` can read half a manifest
 * (and a HEAD during a rewrite of the .md5 file answers with the ETag `""`).
 */
let dir: string;
let emulator: S3Emulator;
let store: ObjectStore;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cg-atomic-'));
  emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
});
afterAll(async () => {
  await emulator.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Reads `key` over and over until `writing` settles; returns the lengths of the reads that found it. */
async function readWhileWriting(key: string, writing: Promise<unknown>): Promise<number[]> {
  let settled = false;
  void writing.finally(() => (settled = true));
  const seen: number[] = [];
  while (!settled) {
    const bytes = await readWhole(store, key);
    if (bytes) seen.push(bytes.length);
  }
  await writing;
  return seen;
}

describe('the local S3 endpoint under a concurrent reader', () => {
  // Known gap of the local endpoint, not of the gate: s3rver writes a body and then its metadata
  // in place, so a reader racing a write can see it half done (S3 makes a write visible whole).
  // Skipped rather than expected to fail because whether a race shows up is timing, and CI must
  // not flake; the fault table's torn-read column keeps measuring it. Unskip once fixed.
  it.skip('never shows a conditionally created object half written', async () => {
    const body = new Uint8Array(256 * 1024).fill(0x7b);
    const partial: number[] = [];
    for (let i = 0; i < 20 && partial.length === 0; i++) {
      const key = `published/atomic/dt=2026-11-30/${i}/_SUCCESS`;
      const seen = await readWhileWriting(key, store.put(key, body, { ifNoneMatch: '*' }));
      partial.push(...seen.filter((length) => length !== body.length));
    }
    expect(partial, 'lengths of reads that saw part of the object').toEqual([]);
  });
});
