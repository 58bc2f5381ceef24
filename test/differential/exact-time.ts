/**
 * Instants as exact nanoseconds since the epoch (bigint): edge timestamps keep every digit of
 * their unit, where epoch milliseconds in a double would not past 2^53 or below a millisecond.
 */
export const NS_PER_MS = 1_000_000n;
export const NS_PER_DAY = 86_400_000_000_000n;

/** Floor division, so instants before 1970 keep their positive sub-second part. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function nanosOf(value: number | bigint): bigint {
  return typeof value === 'bigint' ? value : BigInt(Math.round(value)) * NS_PER_MS;
}

/**
 * ISO text of an instant with `digits` fraction digits (3, 6 or 9), `Z` dropped for a wall clock,
 * or shifted to a `±HH:MM` offset (the same instant). Years 0001 to 9999 only.
 */
export function isoNanos(nanos: bigint, digits: number, zone: 'Z' | 'none' | number = 'Z', separator = 'T'): string {
  const shift = typeof zone === 'number' ? BigInt(zone) * 60_000_000_000n : 0n;
  const local = nanos + shift;
  const ms = floorDiv(local, NS_PER_MS);
  const subMs = local - ms * NS_PER_MS;
  const base = new Date(Number(ms)).toISOString().slice(0, 19).replace('T', separator);
  const fraction = `${String(Number(ms % 1000n + 1000n) % 1000).padStart(3, '0')}${String(subMs).padStart(6, '0')}`.slice(0, digits);
  const tail = zone === 'Z' ? 'Z' : zone === 'none' ? '' : offsetText(zone);
  return `${base}${digits > 0 ? `.${fraction}` : ''}${tail}`;
}

function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Nanoseconds of a UTC date-time given as text DuckDB and Date.parse both read (`0001-01-01T00:00:00Z`). */
export function nanosAt(iso: string): bigint {
  return BigInt(Date.parse(iso)) * NS_PER_MS;
}
