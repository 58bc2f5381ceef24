import type { ColumnType } from '../../lib/contract/column-type.js';
import type { DataFormat } from '../../lib/contract/model.js';
import type { SpecContract } from './contract-spec.js';
import { drawColumnType } from './draw-contract.js';
import type { Random } from './random-tools.js';
import { losslessTypes, wrongTypes } from './stored-types.js';

/** How one file departs from the contract's columns. */
export interface FileLayout {
  readonly missing: ReadonlySet<string>;
  /** Columns stored with another type: a wrong one, or for text formats `text` (strings, some unparseable). */
  readonly retyped: ReadonlyMap<string, ColumnType | 'text'>;
  /** Parquet columns stored with a type that reads without loss. */
  readonly widened: ReadonlyMap<string, ColumnType>;
  readonly extra: readonly { readonly name: string; readonly type: ColumnType }[];
  readonly shuffled: boolean;
}

/** One layout per file: each departure is drawn for the partition and lands in some of its files. */
export function drawLayouts(contract: SpecContract, files: number, r: Random): FileLayout[] {
  const names = contract.columns.map((c) => c.name);
  const some = () => new Set(r.positions(r.between(1, files), files));
  const missing = r.chance(0.15) ? { column: r.pick(names), files: some() } : undefined;
  const retyped = r.chance(0.2) ? drawRetype(contract, r, some()) : undefined;
  const widened = contract.format === 'parquet' && r.chance(0.25) ? drawWiden(contract, r, some()) : undefined;
  const extras = r.chance(0.25) ? Array.from({ length: r.between(1, 2) }, (_, i) => ({ name: `x${i}_extra`, type: drawColumnType(r), files: some() })) : [];
  return Array.from({ length: files }, (_, f) => ({
    missing: new Set(missing?.files.has(f) ? [missing.column] : []),
    retyped: new Map(retyped?.files.has(f) ? [[retyped.column, retyped.type]] : []),
    widened: new Map(widened?.files.has(f) && widened.column !== retyped?.column ? [[widened.column, widened.type]] : []),
    extra: extras.filter((x) => x.files.has(f)).map(({ name, type }) => ({ name, type })),
    shuffled: r.chance(0.3),
  }));
}

function drawRetype(contract: SpecContract, r: Random, files: Set<number>) {
  const column = r.pick(contract.columns);
  const type = textRetype(contract.format, column.type, r) ?? r.pick(wrongTypes(column.type));
  return { column: column.name, type, files };
}

/** In CSV every value is text: a mistyped column is strings the type cannot parse, now and then. */
function textRetype(format: DataFormat, type: ColumnType, r: Random): ColumnType | 'text' | undefined {
  if (format === 'parquet') return undefined;
  if (format === 'csv' || r.chance(0.5)) return type.kind === 'string' || type.kind === 'binary' ? { kind: 'int64' } : 'text';
  return undefined;
}

function drawWiden(contract: SpecContract, r: Random, files: Set<number>) {
  const candidates = contract.columns.filter((c) => losslessTypes(c.type).length > 0);
  if (candidates.length === 0) return undefined;
  const column = r.pick(candidates);
  return { column: column.name, type: r.pick(losslessTypes(column.type)), files };
}
