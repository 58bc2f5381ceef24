import { isNumericType, isTemporalType, type ColumnType } from '../contract/column-type.js';
import { formatBound } from '../contract/temporal.js';
import type { ColumnStats } from './column-stats.js';
import { isIdName } from './column-roles.js';
import type { TypedPartition } from './infer-type.js';
import type { ProposedColumn } from './proposal.js';
import { roundDown, roundUp } from './round-outward.js';
import { exactNumber, ValueRange } from './value-range.js';

export interface ColumnContext {
  /** At most this many distinct values make an enum. */
  readonly enumMax: number;
  /** ...and only with at least this many non-null values per distinct value. */
  readonly enumRatio: number;
  /** Unique in every partition: an identifier, whose range moves with every new partition. */
  readonly unique: boolean;
}

/** The rules one column's values support: required, enum, bounds, each with its reason. */
export function inferColumn(stats: ColumnStats, type: ColumnType, partitions: readonly TypedPartition[], context: ColumnContext): ProposedColumn {
  const notes: string[] = [];
  const required = inferRequired(partitions, notes);
  const values = partitions.reduce((sum, p) => sum + p.nonNull, 0);
  const idLike = identifierOf(stats, type);
  const enumValues = type.kind === 'string' ? inferEnum(stats, values, context, notes) : undefined;
  const range = new ValueRange();
  partitions.forEach((p) => range.merge(p.range));
  const bounds = isNumericType(type) ? inferBounds(type, range, context.unique ? 'unique' : idLike, notes) : {};
  if (isTemporalType(type) && range.min !== undefined) noteTemporalRange(type, range, notes);
  return { name: stats.name, type, required, ...(enumValues ? { enum: enumValues } : {}), ...bounds, ...(idLike ? { idLike } : {}), notes };
}

/**
 * Whether a column looks like an identifier: whole numbers or strings with an id-like name
 * (`trip_id`, `trip_seq`), or strings that are every one a UUID or a ULID.
 */
function identifierOf(stats: ColumnStats, type: ColumnType): ProposedColumn['idLike'] {
  if (!['int32', 'int64', 'string'].includes(type.kind)) return undefined;
  if (isIdName(stats.name)) return 'name';
  const pattern = type.kind === 'string' ? stats.idPattern : undefined;
  return pattern === 'UUID' || pattern === 'ULID' ? pattern : undefined;
}

function inferRequired(partitions: readonly TypedPartition[], notes: string[]): boolean {
  const rows = partitions.reduce((sum, p) => sum + p.rows, 0);
  const nulls = partitions.reduce((sum, p) => sum + p.nulls, 0);
  const seen = `seen ${count(rows, 'row')} in ${count(partitions.length, 'partition')}`;
  if (nulls === 0 && rows > 0) {
    notes.push(`${seen}, no nulls: required`);
    return true;
  }
  const withNulls = partitions.filter((p) => p.nulls > 0).length;
  notes.push(`${seen}, ${count(nulls, 'null')} (in ${withNulls} of ${count(partitions.length, 'partition')}): not required`);
  return false;
}

/**
 * An enum needs few distinct values and many rows for each, so a column that merely has not
 * shown its variety yet (20 names in 25 rows) is not frozen into a list.
 */
function inferEnum(stats: ColumnStats, values: number, context: ColumnContext, notes: string[]): string[] | undefined {
  const distinct = stats.distinct;
  if (!distinct) return undefined;
  const size = distinct.size;
  const rule = `at most ${context.enumMax} distinct values and at least ${context.enumRatio} rows per value`;
  if (size === 0 || size > context.enumMax) return undefined;
  if (values < context.enumRatio * size) {
    notes.push(`no enum: ${count(size, 'distinct value')} in only ${count(values, 'non-null value')} (an enum needs ${rule})`);
    return undefined;
  }
  notes.push(`enum: ${count(size, 'distinct value')} in ${count(values, 'non-null value')} (${rule})`);
  return [...distinct].sort();
}

/** `identifier`: unique in every partition, or id-like (see identifierOf): no bounds for whole numbers. */
function inferBounds(type: ColumnType, range: ValueRange, identifier: 'unique' | ProposedColumn['idLike'], notes: string[]): { min?: number; max?: number } {
  const [min, max] = [exactNumber(range.min), exactNumber(range.max)];
  if (range.nonFinite > 0) {
    notes.push(`no min/max: ${count(range.nonFinite, 'value')} NaN or infinite, which no bound admits`);
    return {};
  }
  if (min === undefined || max === undefined) return {};
  const integer = type.kind === 'int32' || type.kind === 'int64';
  const observed = `observed range ${min} to ${max}`;
  if (integer && identifier) {
    const what = identifier === 'unique' ? 'a unique whole number is an identifier' : 'an id-like name: an identifier';
    notes.push(`${observed}; no min/max: ${what} that grows`);
    return {};
  }
  const bounds = { min: roundDown(min, integer), max: roundUp(max, integer) };
  notes.push(`min/max: the ${observed}, rounded outward to 2 significant digits`);
  return bounds;
}

/**
 * Dates and timestamps move with the partition: a fixed max from last week's data fails
 * tomorrow's partition, a fixed min every backfill. So the range is a comment, not a rule.
 */
function noteTemporalRange(type: ColumnType, range: ValueRange, notes: string[]): void {
  const [min, max] = [Number(range.min), Number(range.max)];
  notes.push(`observed ${formatBound(min, type)} to ${formatBound(max, type)}; no min/max: a fixed bound on time fails the next partition`);
}

export function count(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
