import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { loadContractFile } from '../lib/cli/contract-file.js';
import { DEFAULT_LAYOUT, stagingPrefix } from '../lib/gate/gate-layout.js';
import { startS3Emulator } from '../lib/local/s3-emulator.js';
import { createS3Client } from '../lib/storage/s3-client.js';
import { shapeFiles } from './bench-data.js';
import { measure } from './measure-process.js';
import { NOW, PARTITION } from './orders-data.js';
import type { Shape } from './shape-list.js';
import type { CommonViolation } from './violation-set.js';

/**
 * The Lambda path: uploads a shape's partition to a local S3 endpoint with an empty `_READY`, and
 * validates it as the Lambda does (s3-checks.js, its own process), to see how many of the
 * partition's bytes the gate fetches.
 */
export interface S3Result {
  readonly shape: string; readonly outcome: string; readonly rows: number; readonly violations: CommonViolation[];
  readonly stats: { bytes_total: number; bytes_read: number; read_requests: number }; readonly endpoint: { bytes: number; requests: number };
  readonly decide_ms: number; readonly share: number; readonly wall_ms: number; readonly peak_rss_mb: number;
}

export async function s3Section(dist: string, shape: Shape, timeoutMs: number): Promise<S3Result | { shape: string; error: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cg-bench-s3-'));
  const emulator = await startS3Emulator({ dir, buckets: ['lake'] });
  try {
    process.stderr.write(`S3: uploading ${shape.id} to the local endpoint...\n`);
    const { contract } = await loadContractFile(shape.contract);
    const client = createS3Client({ endpoint: emulator.endpoint });
    const prefix = stagingPrefix(DEFAULT_LAYOUT, { dataset: contract!.name, major: contract!.version.major, partition: PARTITION });
    const marker = `${prefix}${DEFAULT_LAYOUT.marker}`;
    for (const path of shapeFiles(shape)) {
      await client.send(new PutObjectCommand({ Bucket: 'lake', Key: `${prefix}${basename(path)}`, Body: readFileSync(path) }));
    }
    await client.send(new PutObjectCommand({ Bucket: 'lake', Key: marker, Body: new Uint8Array(0), ContentLength: 0 }));
    client.destroy();
    process.stderr.write('S3: validating through decide()...\n');
    const m = measure([join(dist, 'bench', 's3-checks.js'), emulator.endpoint, 'lake', marker, shape.contract, NOW], [0], timeoutMs);
    if (m.outcome !== 'ok') return { shape: shape.id, error: `${m.outcome}: ${m.detail.slice(-500)}` };
    const out = JSON.parse(m.stdout) as Omit<S3Result, 'shape' | 'share' | 'wall_ms' | 'peak_rss_mb'>;
    return { shape: shape.id, ...out, share: out.stats.bytes_read / out.stats.bytes_total, wall_ms: Math.round(m.wallMs), peak_rss_mb: m.peakRssBytes / 2 ** 20 };
  } finally {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
