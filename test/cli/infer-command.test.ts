import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import { expectPasses, runInfer, tempDir, writeSample } from '../infer/infer-helpers.js';

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';

describe('contract-gate infer', () => {
  it('prints the proposed contract on stdout, and why it chose the grain and the freshness column on stderr', async () => {
    const { code, stdout, stderr } = await runInfer([GOOD, '--name', 'orders']);
    expect(code).toBe(0);
    expect(stderr).toMatch(/^grain: order_id: an id-like name, .*\n(.*\n)*freshness_column: updated_at: /);
    expect(stdout).toMatch(/^# Proposed by contract-gate infer from 1 partition, 2 files, 1,200 rows\.\n/);
    expect(parseContract(stdout, 'orders.v1.yaml').problems).toEqual([]);
  });

  it('writes <name>.v<major>.yaml into --out, and refuses to overwrite it', async () => {
    const out = tempDir();
    const first = await runInfer([GOOD, '--name', 'orders', '--major', '3', '--out', out]);
    const path = join(out, 'orders.v3.yaml');
    expect(first).toEqual({ code: 0, stdout: `wrote ${path}\n`, stderr: expect.stringMatching(/^grain: order_id: /) });
    const written = readFileSync(path, 'utf8');
    expect(parseContract(written, path).contract?.version.text).toBe('3.0.0');
    const second = await runInfer([GOOD, '--name', 'orders', '--major', '3', '--out', out]);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`${path} already exists; refusing to overwrite it`);
    expect(readFileSync(path, 'utf8')).toBe(written);
  });

  it('makes an --out directory that does not exist yet, as import does', async () => {
    const out = join(tempDir(), 'contracts', 'proposed');
    const result = await runInfer([GOOD, '--name', 'orders', '--out', out]);
    expect(result.code).toBe(0);
    expect(existsSync(join(out, 'orders.v1.yaml'))).toBe(true);
  });

  it('finds the partitions, the template, the name and the major below a dataset folder', async () => {
    const root = join(tempDir(), 'clicks');
    for (const hour of ['06', '07']) {
      const rows = Array.from({ length: 20 }, (_, i) => `c${i},2026-11-29 ${hour}:${String(i).padStart(2, '0')}:00+00`);
      writeSample(root, `v4/dt=2026-11-29/hr=${hour}/part-0.csv`, ['click_id,clicked_at', ...rows].join('\n'));
    }
    const { code, stdout } = await runInfer([root]);
    expect(code).toBe(0);
    const { contract } = parseContract(stdout, 'clicks.v4.yaml');
    expect(contract).toMatchObject({ name: 'clicks', version: { text: '4.0.0' }, produces: { format: 'csv', partition: 'dt={ds}/hr={hh}' } });
    expect(contract?.sla).toMatchObject({ freshnessColumn: 'clicked_at', maxLagHours: 4, minRows: 10, maxRows: 40 });
  });

  it('takes back a rule the engine finds broken, so the contract still passes its samples', async () => {
    // As text the ids are unique; as numbers 01 and 1 are one id, which the engine's grain sees.
    const dir = join(tempDir(), 'codes', 'dt=2026-11-29');
    writeSample(dir, 'part-0.csv', ['id,kind', '01,a', ...Array.from({ length: 30 }, (_, i) => `${i + 1},a`)].join('\n'));
    const { code, stdout } = await runInfer([dir]);
    expect(code).toBe(0);
    const { contract } = parseContract(stdout, 'codes.v1.yaml');
    expect(contract?.schema.grain).toEqual([]);
    expect(stdout).toContain('no grain, relaxed: the engine found');
    await expectPasses(contract!, [dir]);
  });

  it.each([
    ['no partition', [], 'name at least one sample partition'],
    ['a path that does not exist', ['contracts/examples/nope'], 'contracts/examples/nope: no such file or directory'],
    ['a bad --enum-max', [GOOD, '--enum-max', 'many'], '--enum-max must be a whole number, not "many"'],
    ['a bad --name', [GOOD, '--name', 'Orders!'], '--name "Orders!" is not a dataset name'],
    ['partitions of different folders', [GOOD, 'contracts/examples/orders/duckdb/dt=2026-11-29'], "cannot tell the dataset's name from the folders"],
  ])('exits 2 with %s', async (_case, args, message) => {
    const { code, stdout, stderr } = await runInfer(args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain(message);
  });

  it('exits 2 naming a file it cannot read', async () => {
    const dir = join(tempDir(), 'broken', 'dt=2026-11-29');
    const bad = join(dir, 'part-1.parquet');
    writeSample(dir, 'part-0.parquet', '');
    writeFileSync(join(dir, 'part-0.parquet'), readFileSync(`${GOOD}/part-0000.parquet`));
    writeFileSync(bad, 'PAR1 this is not parquet');
    const { code, stderr } = await runInfer([dir]);
    expect(code).toBe(2);
    expect(stderr).toMatch(new RegExp(`^contract-gate infer: ${bad.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot be read as parquet: `));
  });

  it('exits 2 naming the files of a mix of formats', async () => {
    const dir = join(tempDir(), 'mixed', 'dt=2026-11-29');
    writeSample(dir, 'a.csv', 'x\n1\n');
    writeSample(dir, 'b.jsonl', '{"x":1}\n');
    const { code, stderr } = await runInfer([dir]);
    expect(code).toBe(2);
    expect(stderr).toContain('the samples mix formats');
    expect(existsSync(join(dir, 'a.csv'))).toBe(true);
  });
});
