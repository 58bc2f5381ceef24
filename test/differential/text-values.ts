import type { ColumnType } from '../../lib/contract/column-type.js';
import { unscaledText } from './bound-text.js';
import { isoNanos } from './exact-time.js';
import type { Random } from './random-tools.js';

/**
 * A value written as text the way a hand-rolled exporter might, for a column that reaches a CSV
 * or JSON Lines file as strings: mostly forms the README accepts, sometimes ones it does not.
 */
export function textOf(type: ColumnType, value: unknown, r: Random): string | null {
  if (value === null || value === undefined) return null;
  if (r.chance(0.25)) return r.pick(GARBAGE[type.kind] ?? ['n/a']);
  return validText(type, value, r);
}

function validText(type: ColumnType, value: unknown, r: Random): string {
  if (typeof value === 'bigint' && (type.kind === 'timestamp' || type.kind === 'timestamp_ntz')) return exactInstant(type, value, r);
  switch (type.kind) {
    case 'int32':
    case 'int64': return r.pick([String(value), `+${String(value)}`.replace('+-', '-'), Number(value) >= 0 ? `00${String(value)}` : String(value)]);
    case 'float32':
    case 'float64': return floatText(value as number, r);
    case 'decimal': return `${unscaledText(typeof value === 'bigint' ? value : Math.round((value as number) * 10 ** type.scale), type.scale)}${type.scale > 0 && r.chance(0.3) ? '00' : ''}`;
    case 'boolean': return r.pick(value ? ['true', 'TRUE', 'True', 't'] : ['false', 'FALSE', 'False', 'F']);
    // A date as pandas' to_json(date_format='iso') writes one, now and then: midnight without an offset.
    case 'date': return `${new Date(value as number).toISOString().slice(0, 10)}${r.chance(0.2) ? 'T00:00:00.000' : ''}`;
    case 'timestamp': return instant(value as number, r);
    // Wall-clock time, or a bare date (which reads as midnight, as pandas writes an all-midnight column).
    case 'timestamp_ntz': return r.chance(0.1) ? new Date(value as number).toISOString().slice(0, 10) : new Date(value as number).toISOString().replace('Z', '').replace('T', r.pick(['T', ' ']));
    default: return String(value);
  }
}

/** An edge instant (bigint nanoseconds) with every digit: DuckDB's and pandas' spellings. */
function exactInstant(type: ColumnType, nanos: bigint, r: Random): string {
  if (type.kind === 'timestamp_ntz') return isoNanos(nanos, 9, 'none', r.pick(['T', ' ']));
  return r.pick([isoNanos(nanos, 9), isoNanos(nanos, 9, 0).replace('+00:00', '+00'), isoNanos(nanos, 6, 'Z', ' ')]);
}

function floatText(value: number, r: Random): string {
  if (Number.isNaN(value)) return r.pick(['NaN', 'nan']);
  if (!Number.isFinite(value)) return value > 0 ? r.pick(['Infinity', 'inf']) : r.pick(['-Infinity', '-inf']);
  return r.pick([String(value), value.toExponential()]);
}

function instant(millis: number, r: Random): string {
  const iso = new Date(millis).toISOString();
  return r.pick([iso, iso.replace('Z', '+00:00'), iso.replace('T', ' ').replace('Z', '+0000')]);
}

const GARBAGE: Partial<Record<ColumnType['kind'], string[]>> = {
  int32: ['', 'n/a', '1.5', '12345678901', '0x10', ' 7', '1e3'],
  int64: ['', 'n/a', '1.5', '99999999999999999999', '1,000'],
  float32: ['', 'n/a', '1,5', '--1', 'infinite'],
  float64: ['', 'n/a', '1,5', '1.2.3', 'e5'],
  decimal: ['', 'n/a', '1e2', '12.3.4', '0x1'],
  boolean: ['', 'yes', '1', 't', 'null'],
  date: ['', '2026-02-30', '2026/11/30', '30.11.2026', '2026-11-30T00:00:00Z'],
  timestamp: ['', '2026-11-30T06:00:00', '2026-11-30', 'yesterday', '2026-11-30T25:00:00Z'],
  timestamp_ntz: ['', '2026-11-30T06:00:00Z', '2026-11-30T06:00:00+01:00', 'noon', '2026-11-31T06:00:00'],
};
