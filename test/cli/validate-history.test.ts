import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Emulator } from '../../lib/local/s3-emulator.js';
import { registerContract } from '../../lib/registry/register-contract.js';
import { localObjectStore } from '../../lib/storage/local-object-store.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { dimensionYaml, publish } from '../lake/lake-fixture.js';
import { runCaptured } from './run-captured.js';

const GOOD = resolve('contracts/examples/orders/good/dt=2026-11-29');
const NOW = '2026-11-30T05:00:00Z';

/** orders v1 with both rules that read the lake: its volume against history, its status against a published list. */
const ORDERS = readFileSync('contracts/orders.v1.yaml', 'utf8')
  .replace('  min_rows: 1000\n', '  min_rows: 1000\n  volume_vs_history: { lookback: 7, min_ratio: 0.9, max_ratio: 3 }\n')
  .replace('enum: [placed, paid, cancelled] }', 'enum: [placed, paid, cancelled], references: { contract: statuses, column: status } }');
/** The statuses dimension: one CSV column, its key. */
const STATUSES = dimensionYaml('statuses', '1.0.0', 'csv').replace('grain: [customer_id]', 'grain: [status]').replace(/ {4}- \{ name: customer_id.*\n {4}- \{ name: email.*\n/, '    - { name: status, type: string, required: true }\n');

/** A week of published orders, 100 rows a day: the 1,200 rows of the good example are 12 times that. */
async function fillLake(store: ObjectStore, statuses: string): Promise<void> {
  for (let day = 21; day <= 28; day++) await publish(store, 'orders/v1', `dt=2026-11-${day}`, 100);
  await publish(store, 'orders/v1', 'dt=2026-11-30', 1_000_000); // after the partition checked: not its history
  await publish(store, 'statuses/v1', 'dt=2026-11-29', 2, [{ name: 'part-0000.csv', bytes: statuses }]);
}

function writeContracts(dir: string, files: Record<string, string>): string {
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return join(dir, 'orders.v1.yaml');
}

const violation = (stdout: string, rule: string) => (JSON.parse(stdout) as { violations: { rule: string; message: string; samples: { file: string; value: unknown }[] }[] }).violations.find((v) => v.rule === rule);

describe('contract-gate validate --history: rules that compare with the published lake', () => {
  let base: string;
  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'cg-validate-history-'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('reads the history and the referenced keys from the lake `serve --dir` keeps, and the referenced contract from beside --contract', async () => {
    const lakeDir = join(base, 'serve-lake');
    const emulator = await startS3Emulator({ dir: join(lakeDir, 'buckets'), buckets: ['lake'], port: 0 });
    try {
      await fillLake(s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' }), 'status\nplaced\ncancelled\n');
    } finally {
      await emulator.stop();
    }
    const contract = writeContracts(join(base, 'contracts-a'), { 'orders.v1.yaml': ORDERS, 'statuses.v1.yaml': STATUSES });
    const { code, stdout } = await runCaptured('validate', '--contract', contract, GOOD, '--history', lakeDir, '--format', 'json', '--now', NOW);
    expect(code).toBe(1);
    const volume = violation(stdout, 'volume_vs_history');
    expect(volume?.message).toContain('1200 rows');
    expect(volume?.message).toContain('median 100 of the last 7 published partitions');
    expect(volume?.samples.map((s) => [s.file, s.value])).toEqual([28, 27, 26, 25, 24].map((day) => [`dt=2026-11-${day}`, 100]));
    const references = violation(stdout, 'references');
    expect(references?.message).toContain('s3://lake/published/statuses/v1/dt=2026-11-29/');
    expect(references?.samples[0]?.value).toBe('paid');
  });

  it('reads a plain directory laid out like the bucket, with referenced contracts from its registry first', async () => {
    const lakeDir = join(base, 'plain-lake');
    const store = localObjectStore({ root: lakeDir });
    await fillLake(store, 'status\nplaced\npaid\ncancelled\n');
    await registerContract(store, { path: 'statuses.v1.yaml', text: STATUSES }, { now: Date.parse(NOW) });
    // Beside the contract, a statuses without the column: read, it would make the reference unavailable.
    const contract = writeContracts(join(base, 'contracts-b'), { 'orders.v1.yaml': ORDERS, 'statuses.v1.yaml': dimensionYaml('statuses', '1.0.0', 'csv') });
    const { code, stdout } = await runCaptured('validate', '--contract', contract, GOOD, '--history', lakeDir, '--format', 'json', '--now', NOW);
    expect(code).toBe(1);
    expect(violation(stdout, 'references')).toBeUndefined();
    expect(violation(stdout, 'volume_vs_history')?.message).toContain('of the last 7 published partitions');
  });

  it('asks for --partition when the validated path is not named for a partition, and takes it when given', async () => {
    const lakeDir = join(base, 'plain-lake');
    const unnamed = join(base, 'out', 'batch-0001');
    cpSync(GOOD, unnamed, { recursive: true });
    const contract = join(base, 'contracts-b', 'orders.v1.yaml');
    const refused = await runCaptured('validate', '--contract', contract, unnamed, '--history', lakeDir, '--now', NOW);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`orders has sla.volume_vs_history, which compares the partition with those published before it, but ${unnamed} does not end in one partition path like "dt={ds}": pass --partition, e.g. --partition dt=2026-11-30`);
    const given = await runCaptured('validate', '--contract', contract, unnamed, '--history', lakeDir, '--partition', 'dt=2026-11-25', '--format', 'json', '--now', NOW);
    expect(violation(given.stdout, 'volume_vs_history')?.samples.map((s) => s.file)).toEqual(['dt=2026-11-24', 'dt=2026-11-23', 'dt=2026-11-22', 'dt=2026-11-21']);
  });

  it('takes --partition without --history for the time rules, and refuses one that does not fit the template', async () => {
    const contract = join(base, 'contracts-b', 'orders.v1.yaml');
    const alone = await runCaptured('validate', '--contract', 'contracts/orders.v1.yaml', GOOD, '--partition', 'dt=2026-11-29', '--format', 'json');
    expect(alone.code).toBe(0);
    expect(JSON.parse(alone.stdout).notes).toContain('freshness and not_in_future were judged as of 2026-11-30T05:00:00.000Z, when dt=2026-11-29 was due, not the check time');
    for (const history of [[], ['--history', join(base, 'plain-lake')]]) {
      const misfit = await runCaptured('validate', '--contract', contract, GOOD, ...history, '--partition', '2026-11-29');
      expect(misfit.code).toBe(2);
      expect(misfit.stderr).toContain('--partition 2026-11-29 is not a partition of orders: its template is "dt={ds}"');
    }
  });
});
