import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';

/**
 * The Lambda bench's orders partitions: six columns, Snappy, 250k-row groups, written by DuckDB
 * and cached under bench/data/lambda/ (git-ignored). A `bad` partition carries a few violations
 * spread over the file (one in every fourth row group, plus one duplicated key in the last), so
 * the handler has to decode those row groups, not just read statistics; a `good` one has none.
 */
export type Variant = 'bad' | 'good';

export const ROW_GROUP = 250_000;
export const DATASET = 'orders-lambda';
export const PARTITION = 'dt=2026-11-29';
const DATA_VERSION = 'v1'; // bump when the SQL below changes, so stale caches are not reused
const DATA_DIR = join('bench', 'data', 'lambda');

/**
 * The bench's own contract, shipped in the bundle's contracts/ as a deployed one would be. As
 * bench/contracts/orders-bench.v1.yaml but without the freshness SLA: the bundled handler reads
 * the real clock, and cached data cannot stay fresh.
 */
export const CONTRACT_YAML = `name: ${DATASET}
version: 1.0.0
status: active
owner: { team: orders-platform, notify: [orders-oncall@example.com] }
description: Lambda bench orders partition; six columns, every one required.
produces: { format: parquet, partition: "dt={ds}" }
schema:
  grain: [order_id]
  extra_columns: allow
  columns:
    - { name: order_id, type: string, required: true }
    - { name: customer_id, type: int64, required: true }
    - { name: status, type: string, required: true, enum: [placed, paid, cancelled] }
    - { name: amount, type: "decimal(12,2)", required: true, min: 0 }
    - { name: ordered_at, type: timestamp, required: true }
    - { name: updated_at, type: timestamp, required: true }
sla:
  min_rows: 1000
  max_rows: 1000000000
`;

interface Plant { readonly row: number; readonly rule: string; readonly column: string | null }

/** The kinds of planted violation, cycled over the dirty row groups. */
const KINDS = [
  { rule: 'required', column: 'customer_id' },
  { rule: 'enum', column: 'status' },
  { rule: 'min', column: 'amount' },
  { rule: 'required', column: 'ordered_at' },
  { rule: 'required', column: 'amount' },
] as const;

/** One violation in row groups 1, 5, 9, ...; the last row repeats row 0's order id (a grain violation). */
export function plants(rows: number): Plant[] {
  const list: Plant[] = [];
  for (let group = 1, kind = 0; group * ROW_GROUP < rows; group += 4, kind++) {
    list.push({ row: group * ROW_GROUP + 1_234, ...KINDS[kind % KINDS.length]! });
  }
  list.push({ row: rows - 1, rule: 'grain', column: null });
  return list;
}

/** What the handler's report must count for a bad partition, as `rule column=count` strings. */
export function expectedViolations(rows: number): string[] {
  const counts = new Map<string, number>();
  for (const p of plants(rows)) {
    const key = `${p.rule} ${p.column ?? '-'}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([k, n]) => `${k}=${n}`).sort();
}

export function partitionFile(variant: Variant, rows: number): string {
  return join(DATA_DIR, `orders-${variant}-${rows}-${DATA_VERSION}.parquet`);
}

/** The cached file, generated first if missing (written aside, then renamed: a killed run leaves no half file). */
export async function ensurePartition(variant: Variant, rows: number): Promise<{ path: string; bytes: number }> {
  const path = partitionFile(variant, rows);
  if (!existsSync(path)) {
    process.stderr.write(`generating ${path} with DuckDB (once; reused while it exists)\n`);
    mkdirSync(DATA_DIR, { recursive: true });
    const aside = `${path}.tmp`;
    rmSync(aside, { force: true });
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    await connection.run(`COPY (${selectSql(variant, rows)}) TO '${aside}' (FORMAT parquet, COMPRESSION snappy, ROW_GROUP_SIZE ${ROW_GROUP})`);
    connection.closeSync();
    renameSync(aside, path);
  }
  return { path, bytes: statSync(path).size };
}

/** Row i of the orders, with the planted values of a bad partition swapped in by row number. */
function selectSql(variant: Variant, rows: number): string {
  const planted = variant === 'bad' ? plants(rows) : [];
  const at = (rule: string, column: string | null) => planted.filter((p) => p.rule === rule && p.column === column).map((p) => p.row);
  const when = (list: number[], value: string, otherwise: string) => (list.length ? `CASE WHEN i IN (${list.join(', ')}) THEN ${value} ELSE ${otherwise} END` : otherwise);
  // An odd multiplier is a bijection modulo 2^32: unique ids that look random.
  const id = (n: string) => `'ord_' || lpad(lower(hex((${n} * 2654435761) % 4294967296)), 8, '0')`;
  const ordered = "TIMESTAMPTZ '2026-11-29 00:00:00+00' + to_seconds((i * 7919) % 86000)";
  return `SELECT
    ${when(at('grain', null), id('0'), id('i'))} AS order_id,
    (${when(at('required', 'customer_id'), 'NULL', '1 + (i * 104729) % 250000')})::BIGINT AS customer_id,
    ${when(at('enum', 'status'), "'pending'", "['placed', 'paid', 'paid', 'placed', 'cancelled'][i % 5 + 1]")} AS status,
    (${when(at('min', 'amount'), '-1.5', when(at('required', 'amount'), 'NULL', '((i * 3571) % 100000) / 100'))})::DECIMAL(12,2) AS amount,
    ${when(at('required', 'ordered_at'), 'NULL', ordered)} AS ordered_at,
    ${ordered} + INTERVAL 5 MINUTE AS updated_at
  FROM range(${rows}) t(i)`;
}
