import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DataFormat } from '../../lib/contract/model.js';
import { compareEngines } from './compare-engines.js';
import { contractYaml } from './contract-yaml.js';
import { drawSeed } from './draw-seed.js';
import type { Outcome } from './outcome.js';
import type { EngineOptions } from './run-engine.js';
import { factsJson, type SpecFacts } from './spec-facts.js';

export { isBulkSeed } from './draw-seed.js';

export interface SeedResult {
  readonly seed: number;
  readonly format: DataFormat;
  readonly writer: string;
  /** Worker threads contract-gate used (1: this thread), and whether it read the contract's ODCS export. */
  readonly engine: EngineOptions;
  /** When given: contract-gate ran once per thread count here, instead of with `engine.workers`. */
  readonly workers?: readonly number[];
  readonly yaml: string;
  /** What the lake held for contract-gate: the published history, the referenced keys. */
  readonly facts: SpecFacts;
  /** What the oracle expected; absent when nothing was compared. */
  readonly expected?: Outcome;
  /** Empty when both engines agree. */
  readonly differences: readonly string[];
  /** Set when the writer or the oracle failed on the drawn data: no comparison was made. */
  readonly harnessError?: string;
  readonly dir: string;
}

const EXTENSION: Record<DataFormat, string> = { parquet: 'parquet', csv: 'csv', jsonl: 'jsonl' };

/**
 * Draws, writes, validates with both engines and compares one seed; the files go unless `keep`,
 * which also leaves the contract and the facts beside the partition directory. `workers`: the
 * thread counts to run contract-gate with, each compared (default: the one the seed draws).
 */
export async function runSeed(seed: number, root: string, keep = false, workers?: readonly number[]): Promise<SeedResult> {
  const drawn = drawSeed(seed);
  const dir = join(root, `seed-${seed}`, 'dt=2026-11-30');
  const base = { seed, format: drawn.format, writer: drawn.writer.id, engine: drawn.engine, ...(workers ? { workers } : {}), yaml: contractYaml(drawn.contract), facts: drawn.facts, dir };
  await mkdir(dir, { recursive: true });
  try {
    const paths = drawn.tables.map((_, i) => join(dir, `part-${String(i).padStart(4, '0')}.${drawn.writer.extension ?? EXTENSION[drawn.format]}`));
    try {
      for (const [i, table] of drawn.tables.entries()) await drawn.writer.write(table, paths[i]!);
    } catch (error) {
      return { ...base, differences: [], harnessError: `the writer failed: ${describe(error)}` };
    }
    const compared = await compareEngines(drawn, dir, paths, workers);
    if (keep) await keepBeside(join(root, `seed-${seed}`), drawn.contract.name, compared.yaml, drawn.facts);
    return { ...base, ...compared };
  } catch (error) {
    return { ...base, differences: [], harnessError: `the oracle failed: ${describe(error)}` };
  } finally {
    if (!keep) await rm(join(root, `seed-${seed}`), { recursive: true, force: true });
  }
}

async function keepBeside(dir: string, name: string, yaml: string, facts: SpecFacts): Promise<void> {
  await writeFile(join(dir, `${name}.v1.yaml`), yaml);
  await writeFile(join(dir, 'facts.json'), `${JSON.stringify(factsJson(facts), null, 2)}\n`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
