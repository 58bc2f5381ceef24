import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { mutate, MUTATION_KINDS } from './mutations.js';
import { fileSeed, Prng } from './prng.js';
import { CORPUS, seedFiles, type SeedFile } from './seed-files.js';
import type { ReadPath } from './read-like-engine.js';
import type { SeedSelection } from './matrix-seeds.js';
import { runPool, type Outcome } from './worker-pool.js';

/**
 * One fuzz run: `files` mutated files (kinds in turn, seeds in turn, each reproducible from the
 * run seed and its index), then every file of the corpus's bad_data as it is. Each file is read
 * whole or sliced, with or without key hashes, as its index says (see readPath).
 */
export interface FuzzOptions {
  readonly files: number;
  readonly seed: number;
  readonly workers?: number;
  readonly timeoutMs?: number;
  readonly heapMb?: number;
  readonly rssGrowthMb?: number;
  readonly badData?: boolean;
  /** Which matrix files seed the run (see matrix-seeds.ts); `full` unless told. */
  readonly seeds?: SeedSelection;
  readonly onRecord?: (record: FuzzRecord, done: number, total: number) => void;
}

export interface FuzzRecord {
  readonly index: number;
  readonly kind: string;
  readonly seedFile: string;
  readonly mutation: string;
  readonly path: ReadPath;
  readonly outcome: Outcome;
  readonly detail: string;
  readonly ms: number;
  readonly bytes?: Uint8Array;
}

export interface FuzzReport {
  readonly records: FuzzRecord[];
  readonly restarts: number;
  readonly seconds: number;
  readonly peakRssMb: number;
}

export const BAD_DATA = join(CORPUS, 'bad_data');

export function badDataFiles(): SeedFile[] {
  if (!existsSync(BAD_DATA)) return [];
  return readdirSync(BAD_DATA).filter((name) => name.endsWith('.parquet')).sort().map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(BAD_DATA, name))) }));
}

export interface Planned {
  readonly kind: string;
  readonly seedFile: string;
  readonly mutation: string;
  readonly bytes: Uint8Array;
}

/**
 * Three bits of a hash of the index pick the read path, not the index's own bits: kinds and seeds
 * repeat with periods the read path must not follow, whatever the count of kinds.
 */
export function readPath(index: number): ReadPath {
  const bits = fileSeed(READ_PATH_SEED, index);
  return { hashed: (bits & 1) === 1, sliced: (bits & 2) === 2, streamed: (bits & 6) === 6 };
}

const READ_PATH_SEED = 0x5eed_0a7b;

/** The file of index `index` in a run with these options: what it came from and its bytes. */
export function planFile(index: number, options: FuzzOptions, seeds: SeedFile[], extras: SeedFile[]): Planned {
  if (index >= options.files) {
    const file = extras[index - options.files]!;
    return { kind: 'bad_data', seedFile: file.name, mutation: 'as published', bytes: file.bytes.slice() };
  }
  const kind = MUTATION_KINDS[index % MUTATION_KINDS.length]!;
  const seed = seeds[Math.floor(index / MUTATION_KINDS.length) % seeds.length]!;
  const mutated = mutate(kind, seed.bytes, new Prng(fileSeed(options.seed, index)));
  return { kind: mutated.kind, seedFile: seed.name, mutation: mutated.detail, bytes: mutated.bytes };
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const seeds = await seedFiles(options.seeds);
  const extras = options.badData === false ? [] : badDataFiles();
  const total = options.files + extras.length;
  const planned = new Map<number, Planned>();
  const records: FuzzRecord[] = [];
  const started = performance.now();
  const makeTask = (id: number) => {
    const p = planFile(id, options, seeds, extras);
    planned.set(id, p);
    return { id, bytes: p.bytes.slice(), path: readPath(id) };
  };
  const workers = options.workers ?? availableParallelism();
  const heapMb = options.heapMb ?? 512;
  // Every file in flight may use its heap limit; growth beyond all of them together is a leak past it.
  const pool = { workers, timeoutMs: options.timeoutMs ?? 5_000, heapMb, rssGrowthMb: options.rssGrowthMb ?? heapMb * workers };
  const stats = await runPool(total, makeTask, pool, (result) => {
    const p = planned.get(result.id)!;
    planned.delete(result.id);
    const bad = result.outcome !== 'read' && result.outcome !== 'unreadable';
    const record: FuzzRecord = { index: result.id, kind: p.kind, seedFile: p.seedFile, mutation: p.mutation, path: readPath(result.id), outcome: result.outcome, detail: result.detail, ms: result.ms, ...(bad ? { bytes: p.bytes } : {}) };
    records.push(record);
    options.onRecord?.(record, records.length, total);
  });
  return { records: records.sort((a, b) => a.index - b.index), restarts: stats.restarts, seconds: (performance.now() - started) / 1000, peakRssMb: stats.peakRssMb };
}

export function failures(report: FuzzReport): FuzzRecord[] {
  return report.records.filter((r) => r.outcome === 'TIMEOUT' || r.outcome === 'OOM' || r.outcome === 'CRASH');
}

/** `whole`, `sliced` or `streamed`, then `+hashes` when hashed. */
export function pathName(path: ReadPath): string {
  return `${path.streamed ? 'streamed' : path.sliced ? 'sliced' : 'whole'}${path.hashed ? '+hashes' : ''}`;
}

/** One line for a file: where it came from, how it was read, what happened. */
export function describeRecord(r: FuzzRecord): string {
  return `#${r.index} ${r.kind} of ${r.seedFile} (${r.mutation}), read ${pathName(r.path)}: ${r.outcome} ${r.detail}`;
}
