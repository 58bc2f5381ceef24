import type { DataFormat } from '../../lib/contract/model.js';
import { fileSeed } from '../fuzz/prng.js';
import type { LogicalTable } from '../writers/logical-table.js';
import type { SpecContract } from './contract-spec.js';
import { bulkWriter, drawBulkPartition } from './draw-bulk.js';
import { drawPartition } from './draw-partition.js';
import { drawRuleExtras } from './draw-rule-extras.js';
import { drawWriter } from './draw-writer.js';
import type { NamedWriter } from './duckdb-writers.js';
import { Random } from './random-tools.js';
import type { EngineOptions } from './run-engine.js';
import type { SpecFacts } from './spec-facts.js';

/** Everything one seed draws before the oracle runs: the format, the contract, one table per file, the writer, the lake's facts. */
export interface Drawn {
  readonly seed: number;
  readonly format: DataFormat;
  readonly contract: SpecContract;
  readonly tables: readonly LogicalTable[];
  readonly writer: NamedWriter;
  readonly engine: EngineOptions;
  readonly facts: SpecFacts;
  readonly bulk: boolean;
}

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
    const partition = drawBulkPartition(seed, BULK_ROWS, r);
    const { contract, facts } = drawRuleExtras(seed, partition, BULK_ROWS, true);
    return { seed, format: 'parquet', contract, tables: partition.tables, writer: bulkWriter(BULK_ROWS), engine: drawEngine(seed, false), facts, bulk: true };
  }
  const format = r.weighted<DataFormat>([[6, 'parquet'], [2, 'csv'], [2, 'jsonl']]);
  const partition = drawPartition(seed, format, r);
  const writer = drawWriter(format, r, partition.tables);
  const rows = partition.tables.reduce((sum, t) => sum + t.rows, 0);
  const { contract, facts } = drawRuleExtras(seed, partition, rows, false);
  return { seed, format, contract, tables: partition.tables, writer, engine: drawEngine(seed, format === 'parquet'), facts, bulk: false };
}
