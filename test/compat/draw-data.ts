import { parquetWriteBuffer } from 'hyparquet-writer';
import { pick, randomInt } from '../fixtures/seeded-random.js';
import type { LogicalColumn } from '../writers/logical-table.js';
import { hyparquetData, hyparquetElement } from '../writers/hyparquet-schema.js';
import { domain, satisfiesRules, type ColumnDraft, type ContractDraft, type DraftType, type Random, type Scalar } from './draw-contract.js';

/**
 * A partition a producer working to one contract may write: every rule of that contract holds
 * (by this file's own reading of the rules, independent of the engine's), optional columns may be
 * left out of the file altogether, nulls appear wherever they are allowed, and an undeclared
 * column appears where the contract lets one through.
 */
export interface DrawnData {
  /** The columns in the file, in order; a contract column not listed is absent from the file. */
  readonly columns: readonly { name: string; type: DraftType; values: (Scalar | null)[] }[];
  readonly rows: number;
  readonly absent: readonly string[];
}

const MAX_ROWS = 6;

export function drawData(random: Random, contract: ContractDraft): DrawnData | undefined {
  let rows = randomInt(random, Math.max(1, contract.minRows ?? 1), Math.min(contract.maxRows ?? MAX_ROWS, MAX_ROWS));
  if (rows < (contract.minRows ?? 0)) return undefined;
  const absent = new Set(contract.columns.filter((c) => mayBeAbsent(contract, c, rows) && random() < 0.35).map((c) => c.name));
  // A file holds at least one column: a CSV with none has no header to read.
  if (absent.size === contract.columns.length) absent.delete(contract.columns[0]!.name);
  const values = new Map<string, (Scalar | null)[]>();
  for (const column of contract.columns) {
    const drawn = absent.has(column.name) ? new Array(rows).fill(column.default ?? null) : drawValues(random, contract, column, rows);
    if (!drawn) return undefined;
    values.set(column.name, drawn);
  }
  if (!meetConditions(random, contract, values, absent, rows)) return undefined;
  rows = dropRepeatedKeys(contract, values, rows);
  if (rows < (contract.minRows ?? 0) || rows === 0) return undefined;
  const present = contract.columns.filter((c) => !absent.has(c.name)).map((c) => ({ name: c.name, type: c.type, values: values.get(c.name)!.slice(0, rows) }));
  if (contract.extra !== 'reject' && random() < 0.3) present.push({ name: 'x_extra', type: 'string', values: Array.from({ length: rows }, () => pick(random, ['u', 'v'])) });
  return { columns: present, rows, absent: [...absent] };
}

const isDistinct = (contract: ContractDraft, column: ColumnDraft) => column.unique === true || (contract.grain.length === 1 && contract.grain[0] === column.name);
const mustHaveValue = (contract: ContractDraft, column: ColumnDraft) => column.required === true || contract.grain.includes(column.name);

/** Left out of a file, a column reads as its default or as nulls: allowed when that breaks no rule. */
function mayBeAbsent(contract: ContractDraft, column: ColumnDraft, rows: number): boolean {
  if (column.default !== undefined) return !contract.grain.includes(column.name) && !(column.unique && rows > 1);
  return !mustHaveValue(contract, column) && !column.required_when;
}

function drawValues(random: Random, contract: ContractDraft, column: ColumnDraft, rows: number): (Scalar | null)[] | undefined {
  const fits = domain(column.type).filter((v) => satisfiesRules(column, v));
  const nullable = !mustHaveValue(contract, column);
  if (fits.length === 0) return nullable ? new Array(rows).fill(null) : undefined;
  const distinct = isDistinct(contract, column);
  const pool = [...fits];
  const out: (Scalar | null)[] = [];
  for (let i = 0; i < rows; i++) {
    if (nullable && random() < 0.2) out.push(null);
    else if (!distinct) out.push(pick(random, fits));
    else if (pool.length > 0) out.push(pool.splice(Math.floor(random() * pool.length), 1)[0]!);
    else if (nullable) out.push(null);
    else return undefined;
  }
  return out;
}

/** A row whose condition column holds a listed value gets a value in the dependent column. */
function meetConditions(random: Random, contract: ContractDraft, values: Map<string, (Scalar | null)[]>, absent: ReadonlySet<string>, rows: number): boolean {
  for (const column of contract.columns) {
    const when = column.required_when;
    if (!when) continue;
    const on = values.get(when.column)!;
    const own = values.get(column.name)!;
    for (let i = 0; i < rows; i++) {
      if (on[i] === null || !when.in.includes(on[i]!) || own[i] !== null) continue;
      const choices = domain(column.type).filter((v) => satisfiesRules(column, v) && !(isDistinct(contract, column) && own.includes(v)));
      if (absent.has(column.name) || choices.length === 0) return false;
      own[i] = pick(random, choices);
    }
  }
  return true;
}

/** Rows whose composite grain repeats an earlier row's are dropped: a producer's data has a key. */
function dropRepeatedKeys(contract: ContractDraft, values: Map<string, (Scalar | null)[]>, rows: number): number {
  if (contract.grain.length < 2) return rows;
  const seen = new Set<string>();
  const keep: number[] = [];
  for (let i = 0; i < rows; i++) {
    const key = JSON.stringify(contract.grain.map((name) => values.get(name)![i]));
    if (!seen.has(key)) keep.push(i);
    seen.add(key);
  }
  for (const [name, column] of values) values.set(name, keep.map((i) => column[i]!));
  return keep.length;
}

/** The partition as one file of the contract's format. */
export function fileBytes(data: DrawnData, format: ContractDraft['format'], random: Random): Uint8Array {
  if (format === 'parquet') return parquetBytes(data);
  return new TextEncoder().encode(format === 'csv' ? csvText(data) : jsonLinesText(data, random));
}

function parquetBytes(data: DrawnData): Uint8Array {
  const logical: LogicalColumn[] = data.columns.map((c) => {
    const decimal = /^decimal\((\d+),(\d+)\)$/.exec(c.type);
    const type = decimal ? 'decimal' : (c.type as Exclude<DraftType, `decimal${string}`>);
    return { name: c.name, type, nullable: true, values: c.values, ...(decimal ? { precision: Number(decimal[1]), scale: Number(decimal[2]) } : {}) };
  });
  const schema = [{ name: 'root', num_children: logical.length }, ...logical.map(hyparquetElement)];
  const columnData = logical.map((c) => ({ name: c.name, data: hyparquetData(c), nullable: true }));
  return new Uint8Array(parquetWriteBuffer({ schema, columnData }));
}

function textOf(type: DraftType, value: Scalar): string {
  if (type === 'date') return new Date(value as number).toISOString().slice(0, 10);
  if (type === 'timestamp') return new Date(value as number).toISOString();
  return String(value);
}

/** RFC 4180: every string quoted (so "" is an empty string), a null an empty unquoted field. */
function csvText(data: DrawnData): string {
  const lines = [data.columns.map((c) => c.name).join(',')];
  for (let i = 0; i < data.rows; i++) {
    lines.push(data.columns.map((c) => {
      const value = c.values[i];
      if (value === null || value === undefined) return '';
      return c.type === 'string' ? `"${String(value).replaceAll('"', '""')}"` : textOf(c.type, value);
    }).join(','));
  }
  return lines.join('\n') + '\n';
}

/** A null is written as `null` or left out of the line, as JSON writers do either. */
function jsonLinesText(data: DrawnData, random: Random): string {
  const lines: string[] = [];
  for (let i = 0; i < data.rows; i++) {
    const row: Record<string, unknown> = {};
    for (const c of data.columns) {
      const value = c.values[i];
      if (value === null || value === undefined) {
        if (random() < 0.5) row[c.name] = null;
      } else row[c.name] = c.type === 'date' || c.type === 'timestamp' ? textOf(c.type, value) : value;
    }
    lines.push(JSON.stringify(row));
  }
  return lines.join('\n') + '\n';
}
