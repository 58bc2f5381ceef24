import type { ColumnType } from '../../lib/contract/column-type.js';
import type { Bound } from './contract-spec.js';
import type { Random } from './random-tools.js';

/**
 * Writes a bound as a contract author might: numbers plainly, dates as YYYY-MM-DD, instants with
 * `Z` or another offset (the same instant), wall-clock times without one. The value is what the
 * text means, so the oracle compares with exactly what the YAML says.
 */
export function boundFor(type: ColumnType, value: number, r: Random): Bound {
  const nanos = () => `CAST('${BigInt(value) * 1_000_000n}' AS HUGEINT)`;
  switch (type.kind) {
    case 'date': return { value, yaml: JSON.stringify(new Date(value).toISOString().slice(0, 10)), sql: nanos() };
    case 'timestamp': return { value, yaml: JSON.stringify(instantText(value, r)), sql: nanos() };
    case 'timestamp_ntz': return { value, yaml: JSON.stringify(new Date(value).toISOString().replace('Z', '')), sql: nanos() };
    case 'decimal': return numberBound(unscaledText(Math.round(value * 10 ** type.scale), type.scale), `DECIMAL(38,${type.scale})`);
    case 'int32':
    case 'int64': return numberBound(String(value), 'HUGEINT');
    default: return numberBound(String(value), 'DOUBLE');
  }
}

function numberBound(text: string, sqlType: string): Bound {
  return { value: Number(text), yaml: text, sql: `CAST('${text}' AS ${sqlType})` };
}

function instantText(millis: number, r: Random): string {
  const iso = new Date(millis).toISOString();
  if (r.chance(0.5)) return iso;
  const minutes = r.pick([60, 120, -300, 330, -210]);
  const local = new Date(millis + minutes * 60_000).toISOString().slice(0, 23);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The exact decimal text of unscaled / 10^scale. */
export function unscaledText(unscaled: number | bigint, scale: number): string {
  const digits = String(unscaled).replace('-', '').padStart(scale + 1, '0');
  const sign = unscaled < 0 ? '-' : '';
  return scale === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}
