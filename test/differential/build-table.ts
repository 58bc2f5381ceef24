import type { ColumnType } from '../../lib/contract/column-type.js';
import type { LogicalColumn, LogicalTable } from '../writers/logical-table.js';
import type { SpecColumn, SpecContract } from './contract-spec.js';
import type { PartitionValues } from './draw-rows.js';
import type { FileLayout } from './file-layout.js';
import type { Random } from './random-tools.js';
import { textOf } from './text-values.js';
import { drawValues } from './value-draw.js';
import { freeText } from './string-shape.js';

/** One file's rows [from, to) of the partition, laid out as the file departs from the contract. */
export function buildTable(contract: SpecContract, values: PartitionValues, from: number, to: number, layout: FileLayout, r: Random): LogicalTable {
  const columns: LogicalColumn[] = [];
  for (const spec of contract.columns) {
    if (layout.missing.has(spec.name)) continue;
    const own = values.get(spec.name)!.slice(from, to);
    const retype = layout.retyped.get(spec.name);
    const widen = layout.widened.get(spec.name);
    if (retype === 'text') columns.push(logical(spec.name, { kind: 'string' }, own.map((v) => textOf(spec.type, v, r))));
    else if (retype) columns.push(logical(spec.name, retype, freshValues(retype, own, contract.now, r)));
    else if (widen) columns.push(logical(spec.name, widen, own.map((v) => narrowed(spec, widen, v, r))));
    else columns.push(logical(spec.name, spec.type, own));
  }
  const extras = columns.length === 0 && layout.extra.length === 0 ? [{ name: 'x9_extra', type: { kind: 'int32' } as const }] : layout.extra;
  // A Parquet file needs a column: one that lost its only one gets an extra instead.
  for (const extra of extras) columns.push(logical(extra.name, extra.type, freshValues(extra.type, new Array(to - from).fill(0), contract.now, r)));
  return { columns: layout.shuffled ? r.shuffle(columns) : columns, rows: to - from };
}

function logical(name: string, type: ColumnType, values: unknown[]): LogicalColumn {
  const decimal = type.kind === 'decimal' ? { precision: type.precision, scale: type.scale } : {};
  return { name, type: type.kind, ...decimal, nullable: values.some((v) => v === null), values };
}

/** Values of another type where the original had values; nulls stay nulls. */
function freshValues(type: ColumnType, like: readonly unknown[], now: number, r: Random): unknown[] {
  const good = drawValues(type, r, now).good;
  return like.map((v) => (v === null ? null : good(r)));
}

/** A contract value carried in a narrower type that reads without loss. */
function narrowed(spec: SpecColumn, stored: ColumnType, value: unknown, r: Random): unknown {
  if (value === null) return null;
  if (typeof value === 'bigint') return narrowedExact(spec.type, stored, value);
  const n = value as number;
  switch (stored.kind) {
    case 'int32': return Number.isFinite(n) ? Math.max(-(2 ** 31), Math.min(2 ** 31 - 1, Math.trunc(n))) : 0;
    case 'int64': return Math.max(-(2 ** 53 - 1), Math.min(2 ** 53 - 1, Math.trunc(n)));
    case 'float32': return Math.fround(n);
    case 'decimal': return narrowDecimal(n, stored.precision, stored.scale);
    // Bytes that are UTF-8 stay the same value as text, so keys can repeat across files of both kinds.
    case 'string': return spec.type.kind === 'binary' ? (asText(value as Uint8Array) ?? freeText(r, 0, 8)) : String(value);
    default: return value;
  }
}

/**
 * An exact edge value (an int64, or a decimal's unscaled integer) in a narrower stored type,
 * clamped to it: a decimal loses its last digit with its last scale digit (toward zero).
 */
function narrowedExact(contract: ColumnType, stored: ColumnType, value: bigint): unknown {
  const clamp = (v: bigint, limit: bigint) => (v > limit ? limit : v < -limit - 1n ? -limit - 1n : v);
  const scale = BigInt(contract.kind === 'decimal' ? contract.scale : 0);
  switch (stored.kind) {
    case 'int32': return Number(clamp(value / 10n ** scale, 2n ** 31n - 1n));
    case 'int64': return clamp(value / 10n ** scale, 2n ** 63n - 1n);
    case 'decimal': {
      const limit = 10n ** BigInt(stored.precision) - 1n;
      const v = value / 10n ** (scale - BigInt(stored.scale));
      return v > limit ? limit : v < -limit ? -limit : v;
    }
    default: return value;
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function asText(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function narrowDecimal(value: number, precision: number, scale: number): number {
  const limit = Math.min(10 ** precision - 1, 2 ** 50);
  const unscaled = Math.max(-limit, Math.min(limit, Math.round(value * 10 ** scale)));
  return unscaled / 10 ** scale;
}
