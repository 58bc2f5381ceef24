import type { ColumnSpec, Contract } from '../../lib/contract/model.js';
import { int, str, valuesOf } from './value-cases.js';

/**
 * One value of a row as a writer is handed it, so each writer prints it in its own JSON form:
 * DuckDB a DECIMAL as a number and a TIMESTAMPTZ as `2026-11-29 10:00:00+00`, pandas a Decimal
 * as a float and a datetime as `2026-11-29T10:00:00.000Z`.
 */
export type CaseValue =
  | { readonly kind: 'null' | 'absent' }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'integer'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'decimal'; readonly value: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'date' | 'instant' | 'wall'; readonly value: string };

/** A rule a row can break, as the gate's report and a severity map name it. */
export type BrokenRule = 'type' | 'required' | 'required_when' | 'enum' | 'min' | 'max' | 'pattern' | 'length' | 'not_in_future' | 'extra_columns';

export interface RowCase {
  readonly column: string;
  readonly what: string;
  /** The row is the base row with these values. */
  readonly changes: Readonly<Record<string, CaseValue>>;
  /** The rule the row breaks; undefined for a row the gate passes. */
  readonly breaks?: BrokenRule;
  /** JSON Schema can state the broken rule: the exported schema must refuse the row. */
  readonly stated: boolean;
}

const NULL: CaseValue = { kind: 'null' };
const ABSENT: CaseValue = { kind: 'absent' };

/** A row every rule passes: each column's first good value. */
export function baseRow(contract: Contract): Record<string, CaseValue> {
  return Object.fromEntries(contract.schema.columns.map((column) => [column.name, valuesOf(column).good[0]![1]]));
}

/**
 * The rows of the cases, each the base row with the case's changes, and with its own key and
 * unique values, so that rows judged together in one file break no rule of many rows. A string
 * keeps its form: trailing digits become the row's number at the same width (`r1` → `r7`).
 */
export function caseRows(contract: Contract, cases: readonly RowCase[]): Record<string, CaseValue>[] {
  const base = baseRow(contract);
  const varied = contract.schema.columns.filter((c) => c.unique || c.name === contract.schema.grain[0]);
  return cases.map((sample, i) => {
    const own = Object.fromEntries(varied.map((column) => [column.name, distinct(base[column.name]!, i)]));
    return { ...base, ...own, ...sample.changes };
  });
}

function distinct(value: CaseValue, i: number): CaseValue {
  if (value.kind === 'integer') return int(value.value + BigInt(i));
  if (value.kind !== 'string') throw new Error(`no distinct ${value.kind} values: give the key column a string or integer type`);
  const digits = /\d+$/.exec(value.value)?.[0];
  return str(digits === undefined ? `${value.value} ${i}` : `${value.value.slice(0, -digits.length)}${String(i).padStart(digits.length, '0')}`);
}

/**
 * The cases of every column: each good form of its type (edges of its bounds and lengths, each
 * JSON form the gate reads) and one row per way to break each of its rules, with whether JSON
 * Schema can state that rule. Derived from the contract's columns, so a new rule or type in the
 * matrix is a new case here.
 */
export function rowCases(contract: Contract): RowCase[] {
  const cases = contract.schema.columns.flatMap((column) => {
    const { good, bad } = valuesOf(column);
    return [
      ...good.map(([what, value]): RowCase => ({ column: column.name, what, changes: { [column.name]: value }, stated: false })),
      ...bad.map(([what, value, breaks, stated]): RowCase => ({ column: column.name, what, changes: { [column.name]: value }, breaks, stated })),
      ...presenceCases(contract, column),
    ];
  });
  const extra: RowCase[] = contract.schema.extraColumns === 'reject' ? [{ column: '(row)', what: 'a key the contract does not list', changes: { surprise: str('x') }, breaks: 'extra_columns', stated: true }] : [];
  return [...cases, ...extra];
}

function presenceCases(contract: Contract, column: ColumnSpec): RowCase[] {
  const name = column.name;
  const must = column.required || contract.schema.grain.includes(name);
  const filled = column.default !== undefined;
  const cases: RowCase[] = [
    must ? { column: name, what: 'null', changes: { [name]: NULL }, breaks: 'required', stated: true } : { column: name, what: 'null', changes: { [name]: NULL }, stated: false },
    must && !filled ? { column: name, what: 'the key left out', changes: { [name]: ABSENT }, breaks: 'required', stated: true } : { column: name, what: `the key left out${filled ? ', read as its default' : ''}`, changes: { [name]: ABSENT }, stated: false },
  ];
  const when = column.requiredWhen;
  if (when) {
    const trigger = typeof when.in[0] === 'string' ? str(when.in[0]) : when.in[0] === true || when.in[0] === false ? { kind: 'boolean' as const, value: when.in[0] } : int(when.in[0]!);
    cases.push(
      { column: name, what: `null while ${when.column} is ${String(when.in[0])}`, changes: { [when.column]: trigger, [name]: NULL }, breaks: 'required_when', stated: true },
      { column: name, what: `the key left out while ${when.column} is ${String(when.in[0])}`, changes: { [when.column]: trigger, [name]: ABSENT }, breaks: filled ? undefined : 'required_when', stated: !filled },
      { column: name, what: `a value while ${when.column} is ${String(when.in[0])}`, changes: { [when.column]: trigger }, stated: false },
    );
  }
  return cases;
}
