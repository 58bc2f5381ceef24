import type { ColumnType } from '../../lib/contract/column-type.js';
import type { DataFormat } from '../../lib/contract/model.js';
import type { Scalar, SpecColumn, SpecContract } from './contract-spec.js';
import type { Random } from './random-tools.js';
import { drawValues, type ValueDraw } from './value-draw.js';

/** A contract column and how its data is made. */
export interface ColumnRecipe {
  readonly spec: SpecColumn;
  readonly values: ValueDraw;
  /** The few values rows choose from (the column's cardinality); absent: a fresh value per row. */
  readonly pool?: readonly unknown[];
  readonly nullRate: number;
}

export interface ContractRecipe {
  /** The contract without its SLA, which is drawn once the data is known. */
  readonly contract: SpecContract;
  readonly columns: readonly ColumnRecipe[];
}

export function drawColumnType(r: Random): ColumnType {
  const kind = r.pick(['string', 'string', 'int32', 'int64', 'float32', 'float64', 'decimal', 'boolean', 'date', 'timestamp', 'timestamp', 'timestamp_ntz', 'binary'] as const);
  if (kind !== 'decimal') return { kind };
  const precision = r.chance(0.2) ? 38 : r.between(1, 38);
  // Now and then a scale past 18 (bounds and values compare exactly); DECIMAL(38,38) has no room for JSON's leading zero.
  return { kind, precision, scale: r.between(0, Math.min(precision, r.chance(0.25) ? 37 : 18)) };
}

export function drawContract(seed: number, format: DataFormat, now: number, r: Random): ContractRecipe {
  const count = r.between(1, 9);
  const drafts = Array.from({ length: count }, (_, i) => drawColumn(i, r, now));
  const grain = drawGrain(drafts, r);
  const columns = drafts.map((c) => addRequiredWhen(c, drafts, grain, r));
  const contract: SpecContract = {
    name: `diff_${seed}`,
    format,
    columns: columns.map((c) => c.spec),
    grain,
    extraColumns: r.chance(0.5) ? 'reject' : 'allow',
    sla: {},
    now,
  };
  return { contract, columns };
}

function drawColumn(index: number, r: Random, now: number): ColumnRecipe {
  const type = drawColumnType(r);
  const values = drawValues(type, r, now);
  const unique = values.roomy && r.chance(0.15);
  const required = r.chance(0.4);
  const spec: SpecColumn = { name: columnName(index, type.kind, r), type, required, unique, ...values.rules };
  const nullRate = required ? 0 : r.pick([0, 0, 0.02, 0.3, 0.9, 1]);
  const cardinality = r.pick([1, 2, 5, 50, 2000]);
  const pool = unique ? undefined : Array.from({ length: cardinality }, () => values.good(r));
  return { spec, values, nullRate, ...(pool ? { pool } : {}) };
}

/** Mostly plain names; sometimes with a space, capitals, a dot, a non-ASCII letter or a leading digit. */
function columnName(index: number, kind: string, r: Random): string {
  return r.weighted<string>([
    [7, `c${index}_${kind}`],
    [1, `C${index} ${kind.toUpperCase()}`],
    [1, `c${index}.${kind}`],
    [1, `é${index}_${kind}`],
    [1, `${index}_${kind}`],
  ]);
}

/** A grain's first part has room for distinct keys; the other parts may repeat freely. */
function drawGrain(columns: readonly ColumnRecipe[], r: Random): string[] {
  if (!r.chance(0.5)) return [];
  const first = r.shuffle(columns.filter((c) => c.values.roomy))[0];
  if (!first) return [];
  const rest = r.shuffle(columns.filter((c) => c !== first)).slice(0, r.between(0, 2));
  return [first.spec.name, ...rest.map((c) => c.spec.name)];
}

const CONDITION_KINDS = new Set(['string', 'int32', 'int64', 'boolean']);

function conditionValue(value: unknown): boolean {
  return typeof value === 'bigint' ? value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) : typeof value !== 'number' || !Number.isInteger(value) || Number.isSafeInteger(value);
}

function addRequiredWhen(column: ColumnRecipe, all: readonly ColumnRecipe[], grain: readonly string[], r: Random): ColumnRecipe {
  if (column.spec.required || grain.includes(column.spec.name) || !r.chance(0.3)) return column;
  const condition = r.pick(all);
  if (condition === column || !CONDITION_KINDS.has(condition.spec.type.kind)) return column;
  const source = condition.pool ?? Array.from({ length: 5 }, () => condition.values.good(r));
  // The loader refuses a condition value past 2^53 (it could not match exactly); values are drawn within it.
  const listed = [...new Set(r.shuffle(source.filter(conditionValue)).slice(0, r.between(1, 3)))] as Scalar[];
  if (listed.length === 0) return column;
  return { ...column, spec: { ...column.spec, requiredWhen: { column: condition.spec.name, in: listed } }, nullRate: Math.max(column.nullRate, 0.1) };
}
