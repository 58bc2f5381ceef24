import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { examplePartition } from '../fixtures/example-partitions.js';

let gate: LocalGate;
beforeAll(async () => {
  gate = await startLocalGate({ dir: mkdtempSync(join(tmpdir(), 'cg-drop-')), contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => Date.parse('2026-11-30T05:00:00Z'), print: () => {} });
});
afterAll(() => gate.stop());

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

function localPartition(name: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'cg-producer-')), name);
  mkdirSync(dir, { recursive: true });
  for (const file of examplePartition('good')) writeFileSync(join(dir, file.name), file.bytes);
  writeFileSync(join(dir, '_SUCCESS'), 'a Spark marker the producer left behind');
  return dir;
}

describe('contract-gate drop', () => {
  it('with --no-wait uploads the data files, then a _READY manifest, and returns; the local gate publishes the partition', async () => {
    const { code, stdout } = await run(['drop', '--no-wait', '--contract', 'contracts/orders.v1.yaml', localPartition('dt=2026-11-29'), '--to', 's3://lake', '--endpoint', gate.endpoint]);
    expect(code).toBe(0);
    expect(stdout).toBe('dropped 2 files into s3://lake/staging/orders/v1/dt=2026-11-29/, then s3://lake/staging/orders/v1/dt=2026-11-29/_READY\n');
    await gate.settled();
    const keys: string[] = [];
    for await (const object of gate.store.list('published/orders/v1/dt=2026-11-29/')) keys.push(object.key);
    expect(keys).toEqual(['published/orders/v1/dt=2026-11-29/_SUCCESS', 'published/orders/v1/dt=2026-11-29/part-0000.parquet', 'published/orders/v1/dt=2026-11-29/part-0001.parquet']);
  });

  it('exits 2 when the directory is not named for a partition and no prefix is given', async () => {
    const { code, stderr } = await run(['drop', '--contract', 'contracts/orders.v1.yaml', localPartition('latest'), '--to', 's3://lake', '--endpoint', gate.endpoint]);
    expect(code).toBe(2);
    expect(stderr).toContain('does not end in a partition path like "dt={ds}"');
  });
});
