import type { SchemaElement, Statistics } from 'hyparquet';

/**
 * Which footer statistics may settle a row group without decoding it. A wrong bound is a false
 * PASS (the chunk is never read), a distrusted one only costs a decode, so a chunk's statistics
 * are believed only when all of these hold:
 *
 * 1. The writer (`created_by`) is one we know orders this kind of column right, at that
 *    version (WRITERS and KNOWN_BAD below). Any other writer, or none named, is decoded.
 * 2. The statistics are sane for the row group: null_count within [0, num_rows], distinct_count
 *    within the non-null values, bounds only where some value is not null.
 * 3. The bounds fit the column's own type and order: min <= max as the column orders (hyparquet
 *    reads an unsigned column's bounds unsigned and a decimal's as its scaled value, so a bound a
 *    signed-order writer put there shows up here as min > max), and each bound fits the
 *    annotated width (INT(8/16), UINT(8/16)) or the decimal's precision.
 *
 * Failing 1 for bounds keeps the null count when the writer's counts are known right; failing 2
 * drops everything (the footer contradicts itself); failing 3 drops the bounds. A dictionary
 * proof rests on the footer's encoding_stats, so it too is taken only from a known writer.
 */

/** How a column's bounds are ordered, by its physical and logical type (Parquet's ColumnOrder). */
export type StatisticKind =
  | 'signed-int' | 'unsigned-int' | 'temporal'
  | 'decimal-int' | 'decimal-fixed' | 'decimal-binary'
  | 'bytes' | 'float' | 'boolean' | 'unordered';

const ALL_KINDS: readonly StatisticKind[] = ['signed-int', 'unsigned-int', 'temporal', 'decimal-int', 'decimal-fixed', 'decimal-binary', 'bytes', 'float', 'boolean'];

/** A parsed `created_by`: "parquet-mr version 1.8.0 (build …)" is parquet-mr at [1, 8, 0]. */
export interface WriterVersion {
  /** Lower case; '' when the footer names no writer. */
  readonly application: string;
  /** major, minor, patch; absent when the writer states none ("Polars", "hyparquet"). */
  readonly version?: readonly [number, number, number];
}

/** What a chunk's statistics may be used for; `reason` says why something was not trusted. */
export interface StatisticsTrust {
  readonly bounds: boolean;
  readonly nullCount: boolean;
  readonly reason?: string;
}

interface KnownBad {
  readonly applications: readonly string[];
  readonly kinds: readonly StatisticKind[];
  /** Wrong before this version (and when no version is stated); absent: in every version. */
  readonly before?: readonly [number, number, number];
  /** The fault was the sort order, so a chunk whose min equals its max is still right. */
  readonly unlessMinEqualsMax?: boolean;
  /** The null counts are wrong too (or unknown), not only the bounds. */
  readonly nullCounts?: boolean;
  readonly why: string;
}

/**
 * Writers whose statistics are believed, less KNOWN_BAD. DuckDB, parquet-rs (arrow-rs, what
 * parquet-wasm writes), hyparquet-writer and our own rewrites are checked against DuckDB SQL by
 * the writer matrix; parquet-mr/parquet-java and Arrow C++ are the reference implementations,
 * whose own readers trust them from the versions below. Our rewrites ("contract-gate (…)") go
 * through hyparquet-writer with decimals as unscaled bigints, unsigned values as unsigned and
 * float bounds recomputed (lib/rows/parquet-leaves.ts, parquet-chunk-statistics.ts), so none of
 * its KNOWN_BAD cases arise. Polars is here for its null counts only: its created_by carries no
 * version, so no fix of its bounds can be dated (KNOWN_BAD).
 */
const WRITERS: ReadonlySet<string> = new Set(['duckdb', 'parquet-rs', 'parquet-cpp-arrow', 'parquet-cpp', 'parquet-mr', 'parquet-java', 'polars', 'hyparquet', 'contract-gate']);

const PARQUETJS = ['@dsnp/parquetjs', 'parquet.js', 'parquets', 'parquetjs'];
const PARQUET_MR = ['parquet-mr', 'parquet-java'];

/**
 * Writers known to have written wrong statistics, and for which kinds. Sources:
 * | writer | kinds | versions | source |
 * | parquetjs (@dsnp/parquetjs, parquet.js, parquets) | all | all | min/max of the values as given: strings compare as strings ("999995000" > "9000000000000"); issue 27 |
 * | parquet-mr / parquet-java | binary, FLBA | < 1.8.0 | PARQUET-251 (parquet-java CorruptStatistics) |
 * | parquet-mr / parquet-java | unsigned order, FLBA/binary decimals | < 1.10.0 | PARQUET-686, signed byte order (Arrow C++ ApplicationVersion::HasCorrectStatistics) |
 * | parquet-cpp | unsigned order | < 1.3.0 | PARQUET-686 (same) |
 * | parquet-cpp (Arrow C++ before 4.0, which names itself parquet-cpp-arrow) | FLBA/binary decimals | all | PARQUET-1655, apache/arrow#9582 |
 * | parquet-rs | unsigned, FLBA decimals | < 14.0.0 | apache/arrow-rs#1532, fixed by #1621 (April 2022) |
 * | parquet-rs | BYTE_ARRAY decimals | all | apache/arrow-rs#10860, #11073 (open) |
 * | Polars (no version) | unsigned | all | pola-rs/polars#16683, fixed 2024 by #16766 |
 * | Polars (no version) | decimals | all | pola-rs/polars#25965, #29347 (min > max; fixed 2026) |
 * | Polars (no version) | signed ints, temporal | all | pola-rs/polars#7842 (wrong max_value; fixed 2023) |
 * | Polars (no version) | enum/categorical strings | all | pola-rs/polars#29364 (bounds of the whole dictionary) |
 * | hyparquet-writer (no version) | decimals | all | hyparam/hyparquet-writer#38 (bounds of the unscaled number) |
 * | hyparquet-writer (no version) | unsigned, FLBA decimal bytes | all | compares the values as given: signed numbers, unsigned bytes (its column.js) |
 * | DuckDB | enum strings | < 1.6.0 | duckdb/duckdb#22677 (dictionary range not marked inexact) |
 */
const KNOWN_BAD: readonly KnownBad[] = [
  { applications: PARQUETJS, kinds: ALL_KINDS, nullCounts: true, why: 'parquetjs orders the values as it was given them (numbers given as text compare as text)' },
  { applications: PARQUET_MR, kinds: ['bytes', 'decimal-fixed', 'decimal-binary'], before: [1, 8, 0], why: 'parquet-mr before 1.8.0 wrote corrupt binary statistics (PARQUET-251)' },
  { applications: PARQUET_MR, kinds: ['unsigned-int', 'bytes', 'decimal-fixed', 'decimal-binary'], before: [1, 10, 0], unlessMinEqualsMax: true, why: 'parquet-mr before 1.10.0 ordered these signed (PARQUET-686)' },
  { applications: ['parquet-cpp'], kinds: ['unsigned-int', 'bytes'], before: [1, 3, 0], unlessMinEqualsMax: true, why: 'parquet-cpp before 1.3.0 ordered these signed (PARQUET-686)' },
  { applications: ['parquet-cpp'], kinds: ['decimal-fixed', 'decimal-binary'], why: 'Arrow C++ before 4.0 compared decimal bytes wrongly (PARQUET-1655)' },
  { applications: ['parquet-rs'], kinds: ['unsigned-int', 'decimal-fixed'], before: [14, 0, 0], why: 'parquet-rs before 14 ordered unsigned and decimal bytes wrongly (arrow-rs#1532)' },
  { applications: ['parquet-rs'], kinds: ['decimal-binary'], why: 'parquet-rs orders BYTE_ARRAY decimals wrongly (arrow-rs#10860, #11073)' },
  { applications: ['polars'], kinds: ['signed-int', 'temporal', 'unsigned-int', 'decimal-int', 'decimal-fixed', 'decimal-binary', 'bytes'], why: 'Polars states no version, and its bounds were wrong before fixes (polars#7842, #16683, #29347)' },
  { applications: ['hyparquet'], kinds: ['unsigned-int', 'decimal-int', 'decimal-fixed', 'decimal-binary'], why: 'hyparquet-writer states no version, and orders decimals and unsigned values as given (hyparquet-writer#38)' },
  { applications: ['duckdb'], kinds: ['bytes'], before: [1, 6, 0], why: 'DuckDB before 1.6 (the fix went into the 1.5 branch in May 2026, release not pinned) wrote an enum\'s whole dictionary range as exact (duckdb#22677)' },
];

/**
 * Whether a writer's footer claims beyond min/max are believed: its encoding_stats, on which a
 * dictionary proof rests (every data page dictionary-encoded, so every value is an entry).
 */
export function writerKnown(writer: WriterVersion): boolean {
  return WRITERS.has(writer.application);
}

/** Parses `created_by` as parquet-mr's VersionParser and Arrow's ApplicationVersion do: "<application> version <x.y.z> (build …)". */
export function parseCreatedBy(createdBy: string | undefined): WriterVersion {
  const text = (createdBy ?? '').trim().toLowerCase();
  const versioned = /^(.+?)\s+version\s+v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(text);
  if (versioned) {
    const [, application, major, minor, patch] = versioned;
    return { application: application!.trim(), version: [Number(major), Number(minor ?? 0), Number(patch ?? 0)] };
  }
  // "contract-gate (hyparquet-writer 0.17.0)", "Polars", "@dsnp/parquetjs": the first word names it.
  return { application: /^[^\s(]*/.exec(text)![0] };
}

/** The order a column's statistics are in, from its physical type and annotations. */
export function statisticKind(element: SchemaElement): StatisticKind {
  const { type, converted_type: converted, logical_type: logical } = element;
  if (converted === 'DECIMAL' || logical?.type === 'DECIMAL') {
    return type === 'INT32' || type === 'INT64' ? 'decimal-int' : type === 'FIXED_LEN_BYTE_ARRAY' ? 'decimal-fixed' : type === 'BYTE_ARRAY' ? 'decimal-binary' : 'unordered';
  }
  switch (type) {
    case 'INT32':
    case 'INT64':
      if (converted?.startsWith('UINT_') || (logical?.type === 'INTEGER' && !logical.isSigned)) return 'unsigned-int';
      if (/^(DATE|TIME_|TIMESTAMP_)/.test(converted ?? '') || ['DATE', 'TIME', 'TIMESTAMP'].includes(logical?.type ?? '')) return 'temporal';
      return 'signed-int';
    case 'FLOAT':
    case 'DOUBLE': return 'float';
    case 'BOOLEAN': return 'boolean';
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      if (converted === 'INTERVAL') return 'unordered';
      return logical?.type === 'FLOAT16' ? 'float' : 'bytes';
    default: return 'unordered';
  }
}

/** What `stats` of one chunk may be used for, written by `writer` into a row group of `rowCount` rows. */
export function statisticsTrust(stats: Statistics, element: SchemaElement, writer: WriterVersion, rowCount: number): StatisticsTrust {
  const kind = statisticKind(element);
  const counts = countsProblem(stats, rowCount);
  if (counts) return { bounds: false, nullCount: false, reason: counts };
  if (!writerKnown(writer)) return { bounds: false, nullCount: false, reason: `statistics of ${writer.application ? `"${writer.application}"` : 'a file that names no writer'} are not known to be right` };
  const bad = KNOWN_BAD.find((entry) => appliesTo(entry, writer, kind, stats));
  if (bad) return { bounds: false, nullCount: !bad.nullCounts, reason: bad.why };
  const bounds = boundsProblem(stats, element, kind, rowCount);
  return bounds ? { bounds: false, nullCount: true, reason: bounds } : { bounds: true, nullCount: true };
}

/** `stats` with what is not trusted taken out (undefined when nothing is left). */
export function trustedStatistics(stats: Statistics | undefined, element: SchemaElement, writer: WriterVersion, rowCount: number): Statistics | undefined {
  if (!stats) return undefined;
  const trust = statisticsTrust(stats, element, writer, rowCount);
  if (trust.bounds && trust.nullCount) return stats;
  if (!trust.bounds && !trust.nullCount) return undefined;
  const { min, max, min_value, max_value, null_count, distinct_count, ...rest } = stats;
  return trust.bounds ? { min, max, min_value, max_value, ...rest } : { null_count, distinct_count };
}

function appliesTo(entry: KnownBad, writer: WriterVersion, kind: StatisticKind, stats: Statistics): boolean {
  if (!entry.applications.includes(writer.application) || !entry.kinds.includes(kind)) return false;
  if (entry.before && writer.version && !versionBefore(writer.version, entry.before)) return false;
  return !(entry.unlessMinEqualsMax && stats.min_value !== undefined && sameValue(stats.min_value, stats.max_value));
}

function versionBefore(version: readonly number[], bound: readonly number[]): boolean {
  for (let i = 0; i < 3; i++) if (version[i] !== bound[i]) return version[i]! < bound[i]!;
  return false;
}

function countsProblem(stats: Statistics, rowCount: number): string | undefined {
  const nulls = stats.null_count === undefined ? undefined : Number(stats.null_count);
  if (nulls !== undefined && !(nulls >= 0 && nulls <= rowCount)) return `null_count ${nulls} is not within the row group's ${rowCount} rows`;
  const distinct = stats.distinct_count === undefined ? undefined : Number(stats.distinct_count);
  if (distinct !== undefined && !(distinct >= 0 && distinct <= rowCount - (nulls ?? 0))) return `distinct_count ${distinct} is more than the row group's ${rowCount - (nulls ?? 0)} values`;
  return undefined;
}

function boundsProblem(stats: Statistics, element: SchemaElement, kind: StatisticKind, rowCount: number): string | undefined {
  const { min_value: min, max_value: max } = stats;
  if (min === undefined && max === undefined) return undefined;
  if (stats.null_count !== undefined && Number(stats.null_count) === rowCount) return 'bounds on a chunk whose values are all null';
  if (isOrdered(min) && isOrdered(max) && min > max) return `min ${String(min)} is above max ${String(max)}`;
  const range = valueRange(element, kind);
  const outside = [min, max].find((bound) => isOrdered(bound) && range && (bound < range[0] || bound > range[1]));
  return outside === undefined ? undefined : `bound ${String(outside)} does not fit ${describe(element)}`;
}

/** The values the annotated type can hold, where narrower than the physical type. */
function valueRange(element: SchemaElement, kind: StatisticKind): readonly [number, number] | undefined {
  if (kind === 'decimal-int' || kind === 'decimal-fixed' || kind === 'decimal-binary') {
    const limit = 10 ** ((element.precision ?? 38) - (element.scale ?? 0));
    return element.precision === undefined ? undefined : [-limit, limit];
  }
  const logical = element.logical_type;
  const bits = logical?.type === 'INTEGER' ? logical.bitWidth : Number(/^U?INT_(\d+)$/.exec(element.converted_type ?? '')?.[1] ?? NaN);
  if (!(bits === 8 || bits === 16)) return undefined;
  return kind === 'unsigned-int' ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
}

function describe(element: SchemaElement): string {
  if (element.precision !== undefined) return `DECIMAL(${element.precision},${element.scale ?? 0})`;
  return element.logical_type?.type === 'INTEGER' ? `INT(${element.logical_type.bitWidth}, ${element.logical_type.isSigned})` : element.converted_type ?? element.type ?? 'its type';
}

function isOrdered(value: unknown): value is number | bigint {
  return (typeof value === 'number' && !Number.isNaN(value)) || typeof value === 'bigint';
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) return a.length === b.length && a.every((byte, i) => byte === b[i]);
  return a === b;
}
