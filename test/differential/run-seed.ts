import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataFormat } from '../../lib/contract/model.js';
import { fileSeed } from '../fuzz/prng.js';
import type { LogicalTable } from '../writers/logical-table.js';
import type { NamedWriter } from './duckdb-writers.js';
import type { SpecContract } from './contract-spec.js';
import { contractYaml } from './contract-yaml.js';
import { bulkWriter, drawBulkPartition } from './draw-bulk.js';
import { drawPartition } from './draw-partition.js';
import { drawWriter } from './draw-writer.js';
import { oracleOutcome } from './oracle.js';
import { differences, outcomeOfReport, type Outcome } from './outcome.js';
import { Random } from './random-tools.js';
import { runEngine, type EngineOptions } from './run-engine.js';
import { sampleDifferences } from './sample-check.js';

export interface SeedResult {
  readonly seed: number;
  readonly format: DataFormat;
  readonly writer: string;
  /** Worker threads contract-gate used (1: this thread), and whether it read the contract's ODCS export. */
  readonly engine: EngineOptions;
  readonly yaml: string;
  /** What the oracle expected; absent when nothing was compared. */
  readonly expected?: Outcome;
  /** Empty when both engines agree. */
  readonly differences: readonly string[];
  /** Set when the writer or the oracle failed on the drawn data: no comparison was made. */
  readonly harnessError?: string;
  readonly dir: string;
}

/** Everything one seed draws: the format, the contract, one table per file, and the writer. */
interface Drawn {
  readonly format: DataFormat;
  readonly contract: SpecContract;
  readonly tables: readonly LogicalTable[];
  readonly writer: NamedWriter;
  readonly engine: EngineOptions;
  readonly yaml: string;
}

const EXTENSION: Record<DataFormat, string> = { parquet: 'parquet', csv: 'csv', jsonl: 'jsonl' };

/** One seed in 50 is a bulk seed (see draw-bulk.ts), chosen by a stream of its own. */
export function isBulkSeed(seed: number): boolean {
  return new Random(fileSeed(seed, 1)).chance(0.02);
}

const BULK_ROWS = 4_500_000;

/** Now and then worker threads (they split Parquet files and row-group ranges), or the ODCS form of the contract. */
function drawEngine(seed: number, parallel: boolean): EngineOptions {
  const r = new Random(fileSeed(seed, 2));
  return { workers: parallel && r.chance(0.1) ? 2 : 1, odcs: r.chance(0.15) };
}

export function drawSeed(seed: number): Drawn {
  const r = new Random(fileSeed(seed, 0));
  if (isBulkSeed(seed)) {
    const { contract, tables } = drawBulkPartition(seed, BULK_ROWS, r);
    return { format: 'parquet', contract, tables, writer: bulkWriter(BULK_ROWS), engine: drawEngine(seed, false), yaml: contractYaml(contract) };
  }
  const format = r.weighted<DataFormat>([[6, 'parquet'], [2, 'csv'], [2, 'jsonl']]);
  const { contract, tables } = drawPartition(seed, format, r);
  return { format, contract, tables, writer: drawWriter(format, r), engine: drawEngine(seed, format === 'parquet'), yaml: contractYaml(contract) };
}

/** Draws, writes, validates with both engines and compares one seed; the files go unless `keep`. */
export async function runSeed(seed: number, root: string, keep = false): Promise<SeedResult> {
  const drawn = drawSeed(seed);
  const dir = join(root, `seed-${seed}`, 'dt=2026-11-30');
  const base = { seed, format: drawn.format, writer: drawn.writer.id, engine: drawn.engine, yaml: drawn.yaml, dir, likely: [] };
  await mkdir(dir, { recursive: true });
  try {
    const paths = drawn.tables.map((_, i) => join(dir, `part-${String(i).padStart(4, '0')}.${drawn.writer.extension ?? EXTENSION[drawn.format]}`));
    try {
      for (const [i, table] of drawn.tables.entries()) await drawn.writer.write(table, paths[i]!);
    } catch (error) {
      return { ...base, differences: [], harnessError: `the writer failed: ${describe(error)}` };
    }
    return { ...base, ...(await compareEngines(drawn, dir, paths)) };
  } catch (error) {
    return { ...base, differences: [], harnessError: `the oracle failed: ${describe(error)}` };
  } finally {
    if (!keep) await rm(join(root, `seed-${seed}`), { recursive: true, force: true });
  }
}

async function compareEngines(drawn: Drawn, dir: string, paths: readonly string[]): Promise<Pick<SeedResult, 'expected' | 'differences'>> {
  const { contract, yaml, engine } = drawn;
  const { outcome: expected, views } = await oracleOutcome(contract, paths);
  const report = await runEngine(yaml, `${contract.name}.v1.yaml`, dir, contract.now, engine).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
  if (report instanceof Error) return { expected, differences: [`contract-gate threw: ${report.stack ?? report.message}`] };
  const found = [...differences(expected, outcomeOfReport(report)), ...(await sampleDifferences(contract, report, paths, views))];
  return { expected, differences: found };
}


function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
