import type { ColumnType } from '../../lib/contract/column-type.js';
import { unscaledText } from './bound-text.js';
import { floorDiv, isoNanos, nanosAt, NS_PER_DAY } from './exact-time.js';
import type { Random } from './random-tools.js';

/**
 * An ordered type as exact integer ticks (values, unscaled decimals, days, nanoseconds), with
 * the points where readers and comparisons tend to go wrong: the type's ends, 2^31, 2^53, 2^63,
 * the epoch, the ends of each timestamp unit's range. Bounds are written as exact text.
 */
export interface ExactSpace {
  readonly lo: bigint;
  readonly hi: bigint;
  /** Ticks between neighbouring values of the stored unit (1 ns, 1 µs = 1000, 1 ms = 10^6). */
  readonly step: bigint;
  readonly edges: readonly bigint[];
  /** The logical value the writers take (see value-rep in duckdb-table.ts). */
  value(tick: bigint): unknown;
  /** The bound as YAML text, e.g. `9007199254740993`, `1000000.0000000001`, `"2262-04-11T23:47:16.854775807Z"`. */
  boundText(tick: bigint, r: Random): string;
  /** The bound as an exact SQL literal in the oracle's ordered domain (see orderedValue). */
  boundSql(tick: bigint): string;
  /** Bounds the YAML can spell (years 0001-9999). */
  readonly boundLo: bigint;
  readonly boundHi: bigint;
}

export type TimeUnit = 'ms' | 'us' | 'ns';

const P = (n: number) => 2n ** BigInt(n);
const around = (points: readonly bigint[], d: bigint) => points.flatMap((p) => [p - d, p, p + d]);
const hugeint = (n: bigint) => `CAST('${n}' AS HUGEINT)`;

export function exactSpace(type: ColumnType, unit: TimeUnit): ExactSpace | undefined {
  switch (type.kind) {
    case 'int32': return integers(-P(31), P(31) - 1n, [0n, -1n, 1n, P(24), -P(24)], (t) => Number(t));
    case 'int64': return integers(-P(63), P(63) - 1n, [0n, -1n, 1n, P(31), -P(31), P(32), P(53), -P(53)], (t) => t);
    case 'decimal': return decimals(type.precision, type.scale);
    case 'date': return dates();
    case 'timestamp':
    case 'timestamp_ntz': return instants(type.kind === 'timestamp', unit);
    default: return undefined;
  }
}

function integers(lo: bigint, hi: bigint, inner: bigint[], value: (t: bigint) => unknown): ExactSpace {
  const edges = [lo, lo + 1n, hi - 1n, hi, ...around(inner, 1n)].filter((e) => e >= lo && e <= hi);
  return { lo, hi, step: 1n, edges, value, boundText: (t) => String(t), boundSql: hugeint, boundLo: lo, boundHi: hi };
}

function decimals(precision: number, scale: number): ExactSpace {
  const hi = 10n ** BigInt(precision) - 1n;
  const one = 10n ** BigInt(scale);
  const inner = [0n, one, -one, P(53), -P(53), P(63), -P(63), 10n ** BigInt(precision - 1), -(10n ** BigInt(precision - 1))];
  const edges = [-hi, -hi + 1n, hi - 1n, hi, ...around(inner, 1n)].filter((e) => e >= -hi && e <= hi);
  return {
    lo: -hi, hi, step: 1n, edges, boundLo: -hi, boundHi: hi,
    value: (t) => t,
    // Trailing zeros dropped now and then: `1.50` and `1.5` are the same bound.
    boundText: (t, r) => trimZeros(unscaledText(t, scale), r.chance(0.3)),
    boundSql: (t) => `CAST('${unscaledText(t, scale)}' AS DECIMAL(38,${scale}))`,
  };
}

function trimZeros(text: string, trim: boolean): string {
  return trim && text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

const DAY_0001 = nanosAt('0001-01-01T00:00:00Z') / NS_PER_DAY;
const DAY_9999 = nanosAt('9999-12-31T00:00:00Z') / NS_PER_DAY;
const dayOf = (iso: string) => nanosAt(`${iso}T00:00:00Z`) / NS_PER_DAY;

function dates(): ExactSpace {
  const inner = ['1677-09-21', '1900-01-01', '1969-12-31', '1970-01-01', '2038-01-19', '2262-04-11', '2262-04-12'].map(dayOf);
  return {
    lo: DAY_0001, hi: DAY_9999, step: 1n, boundLo: DAY_0001, boundHi: DAY_9999,
    edges: [DAY_0001, DAY_0001 + 1n, DAY_9999 - 1n, DAY_9999, ...around(inner, 1n)],
    value: (t) => Number(t) * 86_400_000,
    boundText: (t) => JSON.stringify(isoNanos(t * NS_PER_DAY, 0).slice(0, 10)),
    boundSql: (t) => hugeint(t * NS_PER_DAY),
  };
}

/** TIMESTAMP_NS holds ±(2^63-2) ns in DuckDB (±(2^63-1) mean ±infinity); the other units reach years 0001-9999 here. */
const NS_LIMIT = P(63) - 2n;
const STEP: Record<TimeUnit, bigint> = { ms: 1_000_000n, us: 1000n, ns: 1n };

function instants(utc: boolean, unit: TimeUnit): ExactSpace {
  const step = STEP[unit];
  // DuckDB cannot print a TIMESTAMP_NS on 1677-09-21, the first (partial) day of its range: CSV and JSON start a day later.
  const [lo, hi] = unit === 'ns' ? [nanosAt('1677-09-22T00:00:00Z'), NS_LIMIT] : [nanosAt('0001-01-01T00:00:00Z'), nanosAt('9999-12-31T23:59:59.999Z') + 999_999n];
  const snap = (t: bigint) => floorDiv(t, step) * step;
  const inner = [0n, P(53), -P(53), P(53) * 1000n, -P(53) * 1000n, nanosAt('2038-01-19T03:14:07Z'), nanosAt('1900-01-01T00:00:00Z'), NS_LIMIT, -NS_LIMIT].map(snap);
  const edges = [lo, snap(lo + step), snap(hi - step), snap(hi), ...around(inner, step)].filter((e) => e >= lo && e <= hi);
  const digits = unit === 'ms' ? 3 : unit === 'us' ? 6 : 9;
  return {
    lo, hi: snap(hi), step, edges, boundLo: lo, boundHi: snap(hi),
    value: (t) => t,
    boundText: (t, r) => JSON.stringify(isoNanos(t, digits, utc ? zoneFor(t, r) : 'none')),
    boundSql: hugeint,
  };
}

const SAFE_OFFSETS = [nanosAt('1000-01-01T00:00:00Z'), nanosAt('9998-01-01T00:00:00Z')] as const;

/** `Z`, or an offset where the shifted wall clock stays a four-digit year. */
function zoneFor(t: bigint, r: Random): 'Z' | number {
  const offset = r.pick<'Z' | number>(['Z', 'Z', 60, -300, 330, -210]);
  return t > SAFE_OFFSETS[0] && t < SAFE_OFFSETS[1] ? offset : 'Z';
}
