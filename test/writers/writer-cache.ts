import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LogicalTable, WriterVariant } from './logical-table.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where generated matrix files live: git-ignored, regenerated whenever their key changes. */
export const CACHE_DIR = join(ROOT, '.cache', 'writer-matrix');

const PACKAGES = ['@duckdb/node-api', 'parquet-wasm', 'nodejs-polars', 'hyparquet-writer'];

/**
 * What every cached file depends on besides its data: the writers' installed versions and the
 * adapter code in this folder (a change to a type mapping must regenerate every file).
 */
function writerFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of PACKAGES) hash.update(`${name}@${JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version}\n`);
  const here = fileURLToPath(new URL('.', import.meta.url));
  for (const file of readdirSync(here).filter((f) => f.endsWith('.ts')).sort()) hash.update(`${file}\n`).update(readFileSync(join(here, file)));
  return hash.digest('hex');
}

let fingerprint: string | undefined;

const digests = new WeakMap<LogicalTable, string>();

/** A digest of the table's names, types, nullability and every value (once per table object). */
export function tableDigest(table: LogicalTable): string {
  let digest = digests.get(table);
  if (digest === undefined) digests.set(table, (digest = computeDigest(table)));
  return digest;
}

function computeDigest(table: LogicalTable): string {
  const hash = createHash('sha256');
  hash.update(String(table.rows));
  for (const column of table.columns) {
    hash.update(`\n${column.name}\u0000${column.type}\u0000${column.precision}\u0000${column.scale}\u0000${column.nullable}\n`);
    for (const value of column.values) hash.update(valueKey(value)).update('\u0001');
  }
  return hash.digest('hex');
}

function valueKey(value: unknown): string {
  if (value instanceof Uint8Array) return `b${Buffer.from(value).toString('hex')}`;
  if (typeof value === 'number') return Object.is(value, -0) ? 'n-0' : `n${value}`;
  return `${typeof value}${String(value)}`;
}

/** `.cache/writer-matrix/<label>.<variant>.<hash>.parquet`: readable names, keyed by content. */
export function cachedPath(variant: WriterVariant, table: LogicalTable, label: string): string {
  fingerprint ??= writerFingerprint();
  const key = createHash('sha256').update(`${variant.id}\n${variant.settings}\n${fingerprint}\n${tableDigest(table)}`).digest('hex').slice(0, 16);
  return join(CACHE_DIR, `${label}.${variant.id}.${key}.parquet`);
}

/**
 * The variant's file for `table`, written only when no file with the same key exists yet. Files
 * of the same label and variant under an older key are removed, so the cache does not grow.
 */
export async function writeCached(variant: WriterVariant, table: LogicalTable, label: string): Promise<string> {
  const path = cachedPath(variant, table, label);
  if (existsSync(path)) return path;
  await variant.write(table, path);
  const stale = new RegExp(`^${escape(`${label}.${variant.id}.`)}[0-9a-f]{16}\\.parquet$`);
  for (const name of readdirSync(CACHE_DIR)) if (stale.test(name) && join(CACHE_DIR, name) !== path) rmSync(join(CACHE_DIR, name), { force: true });
  return path;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
