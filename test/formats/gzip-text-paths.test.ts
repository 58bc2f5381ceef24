import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { gateDeps } from '../fixtures/gate-fixture.js';
import { contractFrom } from '../fixtures/partition.js';

/** The same partition as plain text would pass: only the compression differs. */
const contractYaml = (format: 'csv' | 'jsonl') => `name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: ${format}, partition: "dt={ds}" }
schema:
  grain: [id]
  columns:
    - { name: id, type: int64, required: true }
    - { name: at, type: timestamp, required: true }
`;

const CSV = 'id,at\n1,2026-11-29 00:00:00+00\n2,2026-11-29 01:00:00.5+00\n';
const JSONL = '{"id":1,"at":"2026-11-29 00:00:00+00"}\n{"id":2,"at":"2026-11-29T01:00:00.5Z"}\n';
const gzip = (text: string) => new Uint8Array(gzipSync(text));
const truncated = (text: string) => gzip(text.repeat(20)).subarray(0, 30);

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cg-gzip-paths-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function validateDir(format: 'csv' | 'jsonl', files: Record<string, Uint8Array>): Promise<{ code: number; stdout: string }> {
  const partition = mkdtempSync(join(dir, 'part-'));
  const data = join(partition, 'dt=2026-11-29');
  mkdirSync(data);
  for (const [name, bytes] of Object.entries(files)) writeFileSync(join(data, name), bytes);
  const contract = join(partition, 'events.v1.yaml');
  writeFileSync(contract, contractYaml(format));
  let stdout = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => {}, isTTY: false };
  const code = await runCli(['validate', '--contract', contract, data, '--now', '2026-11-30T05:00:00Z'], io);
  return { code, stdout };
}

describe('contract-gate validate on gzip-compressed files', () => {
  it('passes a partition of .csv.gz files', async () => {
    const { code, stdout } = await validateDir('csv', { 'part-0000.csv.gz': gzip(CSV), 'part-0001.csv.gz': gzip(CSV.replaceAll('\n1,', '\n3,').replaceAll('\n2,', '\n4,')) });
    expect(stdout).toMatch(/^PASS events 1\.0\.0: 2 files, 4 rows/);
    expect(code).toBe(0);
  });

  it('names a corrupt .jsonl.gz and what is wrong with it, and checks the other files', async () => {
    const { code, stdout } = await validateDir('jsonl', { 'part-0000.jsonl.gz': gzip(JSONL), 'part-0001.jsonl.gz': truncated(JSONL) });
    expect(code).toBe(1);
    expect(stdout).toContain('✗ unreadable: 1 file could not be read');
    expect(stdout).toMatch(/part-0001\.jsonl\.gz: "the gzip data ends early \(zlib: unexpected end of file\): the file is truncated; upload it again whole"/);
  });
});

describe('the gate over S3 on gzip-compressed files', () => {
  let emulator: S3Emulator;
  let store: ObjectStore;
  beforeAll(async () => {
    emulator = await startS3Emulator({ dir: join(dir, 's3'), buckets: ['lake'] });
    store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
  });
  afterAll(() => emulator?.stop());

  async function drop(format: 'csv' | 'jsonl', partition: string, files: Record<string, Uint8Array>) {
    const prefix = `staging/events/v1/${partition}/`;
    for (const [name, bytes] of Object.entries(files)) await store.put(`${prefix}${name}`, bytes);
    // A manifest rather than an empty marker: the SDK warns about a PutObject of unknown length.
    const manifest = { files: Object.entries(files).map(([path, bytes]) => ({ path, size: bytes.byteLength })) };
    await store.put(`${prefix}_READY`, JSON.stringify(manifest));
    return processMarker(gateDeps(store, [contractFrom(contractYaml(format))]), `${prefix}_READY`);
  }

  it('publishes a drop of .jsonl.gz and .csv.gz files read by ranged GETs', async () => {
    const jsonl = await drop('jsonl', 'dt=2026-11-28', { 'a/part-0000.jsonl.gz': gzip(JSONL) });
    const csv = await drop('csv', 'dt=2026-11-29', { 'part-0000.csv.gz': gzip(CSV) });
    expect([jsonl.status, csv.status]).toEqual(['published', 'published']);
    expect('decision' in csv && csv.decision.report.rows).toBe(2);
    expect(await store.head('published/events/v1/dt=2026-11-29/part-0000.csv.gz')).toBeDefined();
  });

  it('quarantines a drop with a corrupt .csv.gz, the report naming the file and what is wrong', async () => {
    const result = await drop('csv', 'dt=2026-11-30', { 'part-0000.csv.gz': gzip(CSV), 'part-0001.csv.gz': truncated(CSV) });
    expect(result.status).toBe('quarantined');
    const unreadable = 'decision' in result ? result.decision.report.violations.find((v) => v.rule === 'unreadable') : undefined;
    expect(unreadable?.samples).toEqual([{ file: expect.stringMatching(/part-0001\.csv\.gz$/), row: null, value: expect.stringMatching(/^the gzip data ends early/) }]);
  });
});
