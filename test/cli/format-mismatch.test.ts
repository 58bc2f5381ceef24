import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { sqlString, withDuckDB } from '../writers/duckdb-session.js';
import { runCaptured } from './run-captured.js';

// `validate` of files in another format than the contract's produces.format: the report names
// the file and produces.format and says how to fix it, instead of the reader's own complaint
// (no Parquet magic, a CSV header that cannot be read, lines that are no JSON).

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
const NOW = ['--now', '2026-11-30T05:00:00Z'];
let root: string;
const contracts: Record<string, string> = {};
const files: Record<string, string> = {};

/** orders.v1.yaml with another produces.format, in a directory of its own (the file name is the version). */
function contractFor(format: string): string {
  const dir = mkdtempSync(join(root, `${format}-contract-`));
  const path = join(dir, 'orders.v1.yaml');
  writeFileSync(path, readFileSync('contracts/orders.v1.yaml', 'utf8').replace('format: parquet', `format: ${format}`));
  return path;
}

/** The good example partition as DuckDB writes it in another format, alone in a partition directory. */
async function exampleAs(name: string, options: string): Promise<string> {
  const dir = join(mkdtempSync(join(root, 'data-')), 'dt=2026-11-29');
  mkdirSync(dir);
  const path = join(dir, name);
  await withDuckDB((db) => db.run(`COPY (FROM read_parquet(${sqlString(`${GOOD}/*.parquet`)})) TO ${sqlString(path)} (${options})`));
  return path;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cg-format-mismatch-'));
  contracts.parquet = 'contracts/orders.v1.yaml';
  contracts.csv = contractFor('csv');
  contracts.jsonl = contractFor('jsonl');
  files.csv = await exampleAs('part-0000.csv', 'FORMAT csv, HEADER');
  files.jsonl = await exampleAs('part-0000.jsonl', 'FORMAT json');
  files.parquet = `${GOOD}/part-0000.parquet`;
});

/** The sample line of the `unreadable` violation in the text report: `e.g. <file>: "<reason>"`. */
function unreadableSample(stdout: string): string | undefined {
  return /✗ unreadable: .*\n\s+e\.g\. (.*)/.exec(stdout)?.[1];
}

describe('validate of a file in another format than produces.format', () => {
  it('names the file and produces.format and says how to fix it, for each pair of formats', async () => {
    const cases = [
      ['parquet', 'csv', `it is a CSV file, but the contract's produces.format is parquet: convert it to Parquet (in DuckDB: COPY (FROM 'in.csv') TO 'out.parquet'), or, if the dataset is CSV, change produces.format to csv`],
      ['parquet', 'jsonl', `it is a JSON Lines file, but the contract's produces.format is parquet: convert it to Parquet (in DuckDB: COPY (FROM 'in.jsonl') TO 'out.parquet'), or, if the dataset is JSON Lines, change produces.format to jsonl`],
      ['csv', 'parquet', `it is a Parquet file, but the contract's produces.format is csv: convert it to CSV (in DuckDB: COPY (FROM 'in.parquet') TO 'out.csv' (FORMAT csv, HEADER)), or, if the dataset is Parquet, change produces.format to parquet`],
      ['csv', 'jsonl', `it is a JSON Lines file, but the contract's produces.format is csv: convert it to CSV (in DuckDB: COPY (FROM 'in.jsonl') TO 'out.csv' (FORMAT csv, HEADER)), or, if the dataset is JSON Lines, change produces.format to jsonl`],
      ['jsonl', 'csv', `it is a CSV file, but the contract's produces.format is jsonl: convert it to JSON Lines (in DuckDB: COPY (FROM 'in.csv') TO 'out.jsonl' (FORMAT json)), or, if the dataset is CSV, change produces.format to csv`],
      ['jsonl', 'parquet', `it is a Parquet file, but the contract's produces.format is jsonl: convert it to JSON Lines (in DuckDB: COPY (FROM 'in.parquet') TO 'out.jsonl' (FORMAT json)), or, if the dataset is Parquet, change produces.format to parquet`],
    ] as const;
    for (const [declared, actual, reason] of cases) {
      const { code, stdout } = await runCaptured('validate', '--contract', contracts[declared]!, files[actual]!, ...NOW);
      expect({ declared, actual, code, sample: unreadableSample(stdout) }).toEqual({ declared, actual, code: 1, sample: `${files[actual]}: ${JSON.stringify(reason)}` });
    }
  });

  it('the conversion it names makes a file the checks can read', async () => {
    const converted = join(mkdtempSync(join(root, 'converted-')), 'dt=2026-11-29');
    mkdirSync(converted);
    const sql = `COPY (FROM 'in.csv') TO 'out.parquet'`.replace("'in.csv'", sqlString(files.csv!)).replace("'out.parquet'", sqlString(join(converted, 'part-0000.parquet')));
    await withDuckDB((db) => db.run(sql));
    const { stdout } = await runCaptured('validate', '--contract', contracts.parquet!, converted, ...NOW);
    expect(unreadableSample(stdout)).toBeUndefined();
  });

  it('calls gzip-compressed text under a Parquet contract what it is', async () => {
    const dir = join(mkdtempSync(join(root, 'gzip-')), 'dt=2026-11-29');
    mkdirSync(dir);
    const path = join(dir, 'part-0000.csv.gz');
    writeFileSync(path, gzipSync(readFileSync(files.csv!)));
    const { stdout } = await runCaptured('validate', '--contract', contracts.parquet!, path, ...NOW);
    expect(unreadableSample(stdout)).toBe(`${path}: ${JSON.stringify("it is a gzip-compressed file, not Parquet, which the contract's produces.format says: write the data as Parquet, or, if it is compressed CSV or JSON Lines, change produces.format to csv or jsonl")}`);
  });

  it('leaves the reader\'s own reason for a broken file of the right format', async () => {
    const dir = join(mkdtempSync(join(root, 'truncated-')), 'dt=2026-11-29');
    mkdirSync(dir);
    const path = join(dir, 'part-0000.parquet');
    writeFileSync(path, readFileSync(files.parquet!).subarray(0, 2_000));
    const { stdout } = await runCaptured('validate', '--contract', contracts.parquet!, path, ...NOW);
    expect(unreadableSample(stdout)).toBe(`${path}: "cannot read the Parquet footer: the file does not end with the Parquet magic \\"PAR1\\""`);
  });

  it('reports a JSON Lines file with one broken line as that row, not as a file of another format', async () => {
    const dir = join(mkdtempSync(join(root, 'one-bad-line-')), 'dt=2026-11-29');
    mkdirSync(dir);
    const path = join(dir, 'part-0000.jsonl');
    const lines = readFileSync(files.jsonl!, 'utf8').split('\n');
    writeFileSync(path, ['order_id,status', ...lines.slice(1)].join('\n'));
    const { stdout } = await runCaptured('validate', '--contract', contracts.jsonl!, path, ...NOW);
    expect(stdout).toContain('✗ unreadable: 1 row could not be read');
    expect(stdout).not.toContain('produces.format');
  });
});
