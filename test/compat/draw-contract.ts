import { stringify } from 'yaml';
import { pick, randomInt } from '../fixtures/seeded-random.js';

/**
 * Random contracts and random edits of them, as YAML a producer would write, for the property
 * that holds the change classifier against the engine (classifier-engine.ts). Values come from
 * small per-type domains (domain.ts), so rules, edits and data keep meeting at their edges.
 */

export type Random = () => number;
export type Mode = 'backward' | 'forward' | 'full';
export type Scalar = string | number | boolean;

export const TYPES = ['string', 'int32', 'int64', 'float64', 'decimal(10,2)', 'decimal(12,2)', 'boolean', 'date', 'timestamp'] as const;
export type DraftType = (typeof TYPES)[number];

export interface ColumnDraft {
  name: string;
  type: DraftType;
  required?: boolean;
  required_when?: { column: string; in: Scalar[] };
  enum?: Scalar[];
  min?: Scalar;
  max?: Scalar;
  pattern?: string;
  min_length?: number;
  max_length?: number;
  unique?: boolean;
  not_in_future?: boolean;
  default?: Scalar;
  severity?: 'warn';
}

export interface ContractDraft {
  version: string;
  format: 'parquet' | 'csv' | 'jsonl';
  mode: Mode;
  extra: 'allow' | 'warn' | 'reject';
  grain: string[];
  columns: ColumnDraft[];
  minRows?: number;
  maxRows?: number;
}

/** Patterns whose matching strings the data drawer can tell apart by testing the domain. */
export const PATTERNS = ['^[a-z]+$', '^[a-z]{1,3}[0-9]?$', '^.{2,}$', '^[a-c]'] as const;

const STRINGS = ['a', 'bb', 'ccc', 'ab1', 'zz9', 'x', 'hello', 'b7'];
const DAY = 86_400_000;
const BASE_DAY = Date.UTC(2026, 0, 1);
/** The check time of every trial: timestamps on either side of it meet not_in_future. */
export const NOW = Date.UTC(2026, 0, 10, 12);

/** The values data of a type is drawn from, and rules bound with. Temporal values are epoch ms. */
export function domain(type: DraftType): Scalar[] {
  switch (type) {
    case 'string': return STRINGS;
    case 'int32':
    case 'int64': return [-3, 0, 1, 2, 5, 7, 11, 20];
    case 'float64': return [-2.5, 0, 0.5, 3.25, 10, 19.75];
    case 'decimal(10,2)':
    case 'decimal(12,2)': return [-1.25, 0, 0.01, 2.5, 9.99, 15];
    case 'boolean': return [true, false];
    case 'date': return [0, 3, 8, 9, 12, 15].map((d) => BASE_DAY + d * DAY);
    case 'timestamp': return [0, 4, 9, 9.5, 10.2, 13].map((d) => BASE_DAY + Math.round(d * DAY));
  }
}

/** How a bound or value is written in YAML: dates and timestamps as text. */
export function yamlValue(type: DraftType, value: Scalar): Scalar {
  if (type === 'date') return new Date(value as number).toISOString().slice(0, 10);
  if (type === 'timestamp') return new Date(value as number).toISOString();
  return value;
}

export const isOrdered = (type: DraftType) => type !== 'string' && type !== 'boolean';
const canEnum = (type: DraftType) => type === 'string';
const isTemporal = (type: DraftType) => type === 'date' || type === 'timestamp';

export function drawContract(random: Random): ContractDraft {
  const count = randomInt(random, 2, 5);
  const columns: ColumnDraft[] = [];
  for (let i = 0; i < count; i++) columns.push(drawColumn(random, `c${i + 1}`, columns));
  const keyable = columns.filter((c) => c.type !== 'float64' && c.type !== 'boolean');
  const grain = random() < 0.35 && keyable.length > 0 ? [pick(random, keyable).name] : [];
  const draft: ContractDraft = { version: '1.0.0', format: pick(random, ['parquet', 'csv', 'jsonl'] as const), mode: pick(random, ['backward', 'forward', 'full'] as const), extra: pick(random, ['allow', 'warn', 'reject'] as const), grain, columns };
  if (random() < 0.25) draft.minRows = randomInt(random, 1, 3);
  if (random() < 0.25) draft.maxRows = randomInt(random, 3, 8);
  return orderBounds(draft);
}

export function drawColumn(random: Random, name: string, before: readonly ColumnDraft[]): ColumnDraft {
  const type = pick(random, TYPES);
  const column: ColumnDraft = { name, type };
  const values = domain(type);
  if (random() < 0.4) column.required = true;
  if (canEnum(type) && random() < 0.3) column.enum = subset(random, values, randomInt(random, 2, 4));
  if (isOrdered(type) && random() < 0.3) column.min = pick(random, values);
  if (isOrdered(type) && random() < 0.3) column.max = pick(random, values);
  if (type === 'string' && random() < 0.2) column.pattern = pick(random, PATTERNS);
  if (type === 'string' && random() < 0.2) column.min_length = randomInt(random, 1, 2);
  if (type === 'string' && random() < 0.2) column.max_length = randomInt(random, 2, 4);
  if (type !== 'boolean' && type !== 'float64' && random() < 0.15) column.unique = true;
  if (isTemporal(type) && random() < 0.3) column.not_in_future = true;
  const conditions = before.filter((c) => c.enum || c.type === 'boolean');
  if (!column.required && conditions.length > 0 && random() < 0.2) column.required_when = drawCondition(random, pick(random, conditions));
  if (random() < 0.2) setDefault(random, column);
  if (random() < 0.1) column.severity = 'warn';
  return column;
}

export function drawCondition(random: Random, on: ColumnDraft): { column: string; in: Scalar[] } {
  const values = on.enum ?? domain(on.type);
  return { column: on.name, in: subset(random, values, randomInt(random, 1, Math.min(2, values.length))) };
}

/** A default the column's own rules accept (the loader refuses any other), or none when no value fits. */
export function setDefault(random: Random, column: ColumnDraft): void {
  const fits = domain(column.type).filter((v) => satisfiesRules(column, v));
  if (fits.length > 0) column.default = pick(random, fits);
  else delete column.default;
}

/** The column's value rules (not required or unique), as the data drawer and the loader read them. */
export function satisfiesRules(column: ColumnDraft, value: Scalar): boolean {
  if (column.enum && !column.enum.includes(value)) return false;
  if (column.min !== undefined && (value as number) < (column.min as number)) return false;
  if (column.max !== undefined && (value as number) > (column.max as number)) return false;
  if (column.not_in_future && (value as number) > NOW) return false;
  if (typeof value === 'string') {
    const length = [...value].length;
    if (column.pattern !== undefined && !new RegExp(column.pattern, 'u').test(value)) return false;
    if (column.min_length !== undefined && length < column.min_length) return false;
    if (column.max_length !== undefined && length > column.max_length) return false;
  }
  return true;
}

export function subset<T>(random: Random, values: readonly T[], size: number): T[] {
  const pool = [...values];
  const out: T[] = [];
  while (out.length < size && pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
  return out;
}

/** Bounds drawn apart are put in order and keys keep no default, as a producer would write them. */
export function orderBounds(draft: ContractDraft): ContractDraft {
  for (const c of draft.columns) {
    if (c.min !== undefined && c.max !== undefined && (c.min as number) > (c.max as number)) [c.min, c.max] = [c.max, c.min];
    if (c.min_length !== undefined && c.max_length !== undefined && c.min_length > c.max_length) [c.min_length, c.max_length] = [c.max_length, c.min_length];
    if (c.default !== undefined && !satisfiesRules(c, c.default)) setDefault(() => 0, c);
    // The loader refuses a default on a key: every row without the column would repeat it.
    if (c.unique || draft.grain.includes(c.name)) delete c.default;
  }
  return draft;
}

/** The contract's YAML, as a producer would write it. */
export function contractYaml(draft: ContractDraft): string {
  const columns = draft.columns.map((c) => {
    const { severity, ...rules } = c;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(rules)) {
      if (key === 'min' || key === 'max' || key === 'default') out[key] = yamlValue(c.type, value as Scalar);
      else if (key === 'enum') out[key] = (value as Scalar[]).map((v) => yamlValue(c.type, v));
      else out[key] = value;
    }
    return severity ? { ...out, severity } : out;
  });
  const sla = draft.minRows !== undefined || draft.maxRows !== undefined ? { sla: { ...(draft.minRows === undefined ? {} : { min_rows: draft.minRows }), ...(draft.maxRows === undefined ? {} : { max_rows: draft.maxRows }) } } : {};
  return stringify({
    name: 'prop',
    version: draft.version,
    owner: { team: 'property', notify: ['property@example.com'] },
    produces: { format: draft.format, partition: 'dt={ds}' },
    schema: { grain: draft.grain, extra_columns: draft.extra, columns },
    ...sla,
    compat: { mode: draft.mode },
  });
}
