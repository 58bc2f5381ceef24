import { cpSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { sqlString, withDuckDB } from '../writers/duckdb-session.js';
import { runCaptured } from './run-captured.js';

// What `drop` checks before it uploads a byte: that the bucket's registry, which the gate judges
// by, has a contract for the dataset and major, and that the files are in produces.format.

const CONTRACT = 'contracts/orders.v1.yaml';
const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';

let bucket: S3Emulator;
let root: string;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cg-drop-checks-'));
  bucket = await startS3Emulator({ dir: join(root, 'bucket'), buckets: ['lake'], port: 0 });
});
afterAll(() => bucket.stop());

const store = () => s3ObjectStore({ client: createS3Client({ endpoint: bucket.endpoint }), bucket: 'lake' });

async function keysUnder(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of store().list(prefix)) keys.push(object.key);
  return keys;
}

function partitionCopy(): string {
  const dir = join(mkdtempSync(join(root, 'producer-')), 'dt=2026-11-29');
  cpSync(GOOD, dir, { recursive: true });
  return dir;
}

describe('drop for a dataset whose major has no contract registered on the bucket', () => {
  it('uploads nothing, exits 2 and says how to register it; the publish it names lets the next drop through', async () => {
    const dir = partitionCopy();
    const refused = await runCaptured('drop', '--contract', CONTRACT, dir, '--to', 's3://lake', '--endpoint', bucket.endpoint, '--no-wait');
    expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' });
    const publish = `contract-gate publish ${CONTRACT} --to s3://lake --endpoint ${bucket.endpoint}`;
    expect(refused.stderr).toBe(
      'contract-gate drop: no contract is registered for orders v1 on s3://lake (s3://lake/_contracts/orders/v1/current.json does not exist), ' +
        'so the gate would refuse this drop unread (no_contract). Nothing was uploaded. Register the contract, then drop again:\n' +
        `  ${publish}\n` +
        '(a gate deployed with bundled contracts keeps no registry: for one, pass --registry none)\n',
    );
    expect(await keysUnder('')).toEqual([]);

    const published = await runCaptured(...publish.split(' ').slice(1));
    expect(published.code).toBe(0);
    const dropped = await runCaptured('drop', '--contract', CONTRACT, dir, '--to', 's3://lake', '--endpoint', bucket.endpoint, '--no-wait');
    expect({ code: dropped.code, stderr: dropped.stderr }).toEqual({ code: 0, stderr: '' });
    expect(await keysUnder('staging/')).toEqual(['staging/orders/v1/dt=2026-11-29/_READY', 'staging/orders/v1/dt=2026-11-29/part-0000.parquet', 'staging/orders/v1/dt=2026-11-29/part-0001.parquet']);
    for (const key of await keysUnder('staging/')) await store().delete(key);
  });

  it('asks a registry under another prefix with --registry, and none at all with --registry none', async () => {
    const other = await runCaptured('drop', '--contract', CONTRACT, partitionCopy(), '--to', 's3://lake', '--endpoint', bucket.endpoint, '--no-wait', '--registry', 'teams/contracts');
    expect(other.code).toBe(2);
    expect(other.stderr).toContain('(s3://lake/teams/contracts/orders/v1/current.json does not exist)');
    expect(other.stderr).toContain(`  contract-gate publish ${CONTRACT} --to s3://lake/teams/contracts/ --endpoint ${bucket.endpoint}\n`);
    const unchecked = await runCaptured('drop', '--contract', CONTRACT, partitionCopy(), '--to', 's3://lake/incoming/', '--endpoint', bucket.endpoint, '--no-wait', '--registry', 'none');
    expect(unchecked.code).toBe(0);
  });
});

describe('drop for a dataset whose pointer names another dataset', () => {
  it('says the gate does not enforce that pointer, and uploads', async () => {
    const pointer = { format: 'contract-gate/registry-pointer@1', name: 'victim', major: 1, version: '1.2.0', key: 'spoof/victim/v1/1.2.0.yaml', sha256: '0', file: 'victim.v1.yaml', registered_at: '' };
    await store().put('spoof/orders/v1/current.json', JSON.stringify(pointer));
    const dropped = await runCaptured('drop', '--contract', CONTRACT, partitionCopy(), '--to', 's3://lake/spoofed/', '--endpoint', bucket.endpoint, '--no-wait', '--registry', 'spoof/');
    expect(dropped.code).toBe(0);
    expect(dropped.stderr).toContain('note: s3://lake/spoof/orders/v1/current.json is ignored: it names victim v1, but a pointer at this key may only name orders v1: the gate does not enforce that pointer');
  });
});

describe('drop of files that are not in the contract\'s produces.format', () => {
  it('names produces.format and each file, says how to fix it, and uploads nothing', async () => {
    // The producer's job wrote CSV (here: DuckDB, from the good example) where the contract says Parquet.
    const dir = join(mkdtempSync(join(root, 'csv-')), 'dt=2026-11-29');
    mkdirSync(dir);
    const csv = join(dir, 'part-0000.csv');
    await withDuckDB((db) => db.run(`COPY (FROM read_parquet(${sqlString(`${GOOD}/*.parquet`)})) TO ${sqlString(csv)} (FORMAT csv, HEADER)`));
    const { code, stdout, stderr } = await runCaptured('drop', '--contract', CONTRACT, dir, '--to', 's3://lake', '--endpoint', bucket.endpoint);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr).toBe(
      `contract-gate drop: 1 file of 1 in ${dir} is not in the format ${CONTRACT} declares (produces.format: parquet), so the gate could not read it. Nothing was uploaded\n` +
        `  ${csv}: it is a CSV file, but the contract's produces.format is parquet: convert it to Parquet (in DuckDB: COPY (FROM 'in.csv') TO 'out.parquet'), or, if the dataset is CSV, change produces.format to csv\n`,
    );
    expect(await keysUnder('staging/')).toEqual([]);
  });
});
