import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DuckDBConnection } from '@duckdb/node-api';
import { writeAtomically } from '../writers/write-file.js';
import type { HeldoutCase } from './heldout-case.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the held-out files and their contracts are kept between runs (git-ignored). */
export const HELDOUT_DIR = join(ROOT, 'test-output', 'heldout-matrix');

export function packageVersion(name: string): string {
  return String(JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version);
}

const WRITER_CODE = ['heldout-case.ts', 'heldout-writers.ts', 'heldout-js-writers.ts', 'heldout-csv-write.py'];
const PACKAGES = ['@duckdb/node-api', 'parquet-wasm', 'nodejs-polars', '@dsnp/parquetjs'];

let fingerprint: string | undefined;

/** The writers' versions and the adapter code: a change to either rewrites every file. */
function writerFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of PACKAGES) hash.update(`${name}@${packageVersion(name)}\n`);
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const file of WRITER_CODE) hash.update(`${file}\n`).update(readFileSync(join(here, file)));
  return hash.digest('hex');
}

/** `<writer>.<table>.<key>.<ext>`, keyed by the table's definition, the writer's settings and code. */
export function heldoutPath(c: HeldoutCase): string {
  fingerprint ??= writerFingerprint();
  const { writer } = c;
  const key = createHash('sha256').update(JSON.stringify([c.table, writer.id, writer.settings, writer.csv ?? null, fingerprint])).digest('hex').slice(0, 16);
  return join(HELDOUT_DIR, `${c.id.replace('/', '.')}.${key}.${writer.ext}`);
}

/**
 * The case's file, written from table `src` of `connection` only when no file with the same key
 * exists; older files of the same case are removed so the folder does not grow.
 */
export async function writeHeldoutCached(c: HeldoutCase, connection: DuckDBConnection): Promise<string> {
  const path = heldoutPath(c);
  if (existsSync(path)) return path;
  mkdirSync(HELDOUT_DIR, { recursive: true });
  await writeAtomically(path, (temp) => c.writer.write(connection, c.table, temp));
  const prefix = `${c.id.replace('/', '.')}.`;
  for (const name of readdirSync(HELDOUT_DIR)) {
    const stale = name.startsWith(prefix) && /^[0-9a-f]{16}\./.test(name.slice(prefix.length)) && join(HELDOUT_DIR, name) !== path;
    if (stale) rmSync(join(HELDOUT_DIR, name), { force: true });
  }
  return path;
}
