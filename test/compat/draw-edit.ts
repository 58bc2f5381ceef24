import { pick, randomInt } from '../fixtures/seeded-random.js';
import { domain, drawColumn, orderBounds, drawCondition, isOrdered, PATTERNS, satisfiesRules, setDefault, subset, TYPES, type ColumnDraft, type ContractDraft, type DraftType, type Random } from './draw-contract.js';

/**
 * One edit a producer makes to a contract, named for the trial's log. Each keeps the contract
 * loadable; whether it is compatible is the classifier's call, which the property then tests.
 */
interface Edit {
  readonly name: string;
  readonly applies: (draft: ContractDraft) => boolean;
  readonly apply: (draft: ContractDraft, random: Random) => void;
}

const WIDER: Partial<Record<DraftType, DraftType[]>> = { int32: ['int64', 'float64'], 'decimal(10,2)': ['decimal(12,2)'] };

const anyColumn = (d: ContractDraft) => d.columns.length > 0;
const column = (d: ContractDraft, random: Random, test: (c: ColumnDraft) => boolean = () => true) => pick(random, d.columns.filter(test));
const has = (test: (c: ColumnDraft) => boolean) => (d: ContractDraft) => d.columns.some(test);
const notKey = (d: ContractDraft) => (c: ColumnDraft) => !d.grain.includes(c.name) && !d.columns.some((o) => o.required_when?.column === c.name);

const EDITS: readonly Edit[] = [
  { name: 'add column', applies: () => true, apply: (d, r) => d.columns.push(drawColumn(r, nextName(d), d.columns)) },
  { name: 'add optional column', applies: () => true, apply: (d, r) => d.columns.push(optional(drawColumn(r, nextName(d), d.columns))) },
  { name: 'remove column', applies: (d) => d.columns.some(notKey(d)) && d.columns.length > 1, apply: (d, r) => removeColumn(d, column(d, r, notKey(d)).name) },
  { name: 'widen type', applies: has((c) => WIDER[c.type] !== undefined), apply: (d, r) => widen(column(d, r, (c) => WIDER[c.type] !== undefined), r) },
  { name: 'change type', applies: anyColumn, apply: (d, r) => retype(column(d, r), pick(r, TYPES)) },
  { name: 'toggle required', applies: anyColumn, apply: (d, r) => toggle(column(d, r), 'required') },
  { name: 'toggle unique', applies: has((c) => c.type !== 'boolean' && c.type !== 'float64'), apply: (d, r) => toggle(column(d, r, (c) => c.type !== 'boolean' && c.type !== 'float64'), 'unique') },
  { name: 'add enum value', applies: has((c) => c.enum !== undefined), apply: (d, r) => addEnumValue(column(d, r, (c) => c.enum !== undefined), r) },
  { name: 'remove enum value', applies: has((c) => (c.enum?.length ?? 0) > 1), apply: (d, r) => removeEnumValue(column(d, r, (c) => (c.enum?.length ?? 0) > 1), r) },
  { name: 'drop enum', applies: has((c) => c.enum !== undefined), apply: (d, r) => void delete column(d, r, (c) => c.enum !== undefined).enum },
  { name: 'move a bound', applies: has((c) => isOrdered(c.type)), apply: (d, r) => moveBound(column(d, r, (c) => isOrdered(c.type)), r) },
  { name: 'change pattern', applies: has((c) => c.type === 'string'), apply: (d, r) => changePattern(column(d, r, (c) => c.type === 'string'), r) },
  { name: 'change length', applies: has((c) => c.type === 'string'), apply: (d, r) => changeLength(column(d, r, (c) => c.type === 'string'), r) },
  { name: 'toggle not_in_future', applies: has((c) => c.type === 'date' || c.type === 'timestamp'), apply: (d, r) => toggle(column(d, r, (c) => c.type === 'date' || c.type === 'timestamp'), 'not_in_future') },
  { name: 'change default', applies: anyColumn, apply: (d, r) => changeDefault(column(d, r), r) },
  { name: 'change required_when', applies: anyColumn, apply: (d, r) => changeCondition(d, column(d, r), r) },
  { name: 'toggle severity', applies: anyColumn, apply: (d, r) => toggleSeverity(column(d, r)) },
  { name: 'change grain', applies: anyColumn, apply: (d, r) => changeGrain(d, r) },
  { name: 'change extra_columns', applies: () => true, apply: (d, r) => void (d.extra = pick(r, ['allow', 'warn', 'reject'] as const)) },
  { name: 'move volume band', applies: () => true, apply: (d, r) => moveVolume(d, r) },
];

/** Applies 1 or 2 edits to a copy of `old`, with a minor bump (the classifier, not the bump, is on trial). */
export function drawEdit(random: Random, old: ContractDraft): { next: ContractDraft; edits: string[] } {
  const next: ContractDraft = structuredClone(old);
  next.version = '1.1.0';
  const edits: string[] = [];
  for (let i = randomInt(random, 1, 2); i > 0; i--) {
    const edit = pick(random, EDITS.filter((e) => e.applies(next)));
    edit.apply(next, random);
    edits.push(edit.name);
  }
  repair(next);
  return { next, edits };
}

function nextName(d: ContractDraft): string {
  for (let i = 1; ; i++) if (!d.columns.some((c) => c.name === `c${i}`)) return `c${i}`;
}

function optional(column: ColumnDraft): ColumnDraft {
  delete column.required;
  delete column.required_when;
  delete column.default;
  return column;
}

function removeColumn(d: ContractDraft, name: string): void {
  d.columns = d.columns.filter((c) => c.name !== name);
}

function widen(column: ColumnDraft, random: Random): void {
  retype(column, pick(random, WIDER[column.type]!));
}

function retype(column: ColumnDraft, type: DraftType): void {
  column.type = type;
  // Rules of the old type are dropped where the new type cannot carry them, as a producer would.
  const values = domain(type);
  if (column.enum) column.enum = type === 'string' ? column.enum.filter((v) => values.includes(v)) : undefined;
  if (!column.enum?.length) delete column.enum;
  for (const key of ['min', 'max'] as const) if (column[key] !== undefined && !(isOrdered(type) && values.includes(column[key]!))) delete column[key];
  if (type !== 'string') for (const key of ['pattern', 'min_length', 'max_length'] as const) delete column[key];
  if (type !== 'date' && type !== 'timestamp') delete column.not_in_future;
  if (type === 'boolean' || type === 'float64') delete column.unique;
  keepDefaultFitting(column);
}

function toggle(column: ColumnDraft, key: 'required' | 'unique' | 'not_in_future'): void {
  if (column[key]) delete column[key];
  else column[key] = true;
}

function addEnumValue(column: ColumnDraft, random: Random): void {
  const spare = domain(column.type).filter((v) => !column.enum!.includes(v));
  if (spare.length > 0) column.enum!.push(pick(random, spare));
}

function removeEnumValue(column: ColumnDraft, random: Random): void {
  column.enum!.splice(Math.floor(random() * column.enum!.length), 1);
}

function moveBound(column: ColumnDraft, random: Random): void {
  const key = pick(random, ['min', 'max'] as const);
  if (random() < 0.25) delete column[key];
  else column[key] = pick(random, domain(column.type));
}

function changePattern(column: ColumnDraft, random: Random): void {
  if (column.pattern !== undefined && random() < 0.4) delete column.pattern;
  else column.pattern = pick(random, PATTERNS);
}

function changeLength(column: ColumnDraft, random: Random): void {
  const key = pick(random, ['min_length', 'max_length'] as const);
  if (column[key] !== undefined && random() < 0.3) delete column[key];
  else column[key] = key === 'min_length' ? randomInt(random, 1, 3) : randomInt(random, 1, 5);
}

function changeDefault(column: ColumnDraft, random: Random): void {
  if (column.default !== undefined && random() < 0.4) delete column.default;
  else setDefault(random, column);
}

function changeCondition(d: ContractDraft, column: ColumnDraft, random: Random): void {
  const conditions = d.columns.filter((c) => c !== column && (c.enum || c.type === 'boolean'));
  if (column.required_when && (random() < 0.4 || conditions.length === 0)) delete column.required_when;
  else if (conditions.length > 0) column.required_when = drawCondition(random, pick(random, conditions));
}

function toggleSeverity(column: ColumnDraft): void {
  if (column.severity) delete column.severity;
  else column.severity = 'warn';
}

function changeGrain(d: ContractDraft, random: Random): void {
  const keyable = d.columns.filter((c) => c.type !== 'float64' && c.type !== 'boolean');
  d.grain = random() < 0.3 || keyable.length === 0 ? [] : subset(random, keyable.map((c) => c.name), randomInt(random, 1, 2));
}

function moveVolume(d: ContractDraft, random: Random): void {
  if (random() < 0.5) d.minRows = random() < 0.3 ? undefined : randomInt(random, 1, 4);
  else d.maxRows = random() < 0.3 ? undefined : randomInt(random, 2, 8);
}

/** A default its column's edited rules no longer accept becomes the first value they do (or none). */
function keepDefaultFitting(column: ColumnDraft): void {
  if (column.default !== undefined && !(domain(column.type).includes(column.default) && satisfiesRules(column, column.default))) setDefault(() => 0, column);
}

/**
 * Keeps an edited contract loadable: bounds in order, lengths in order, defaults that fit their
 * rules, required_when on a column that still exists with the listed values, grain columns that
 * exist. What it changes is part of the edit the classifier sees.
 */
export function repair(d: ContractDraft): void {
  const names = new Set(d.columns.map((c) => c.name));
  d.grain = d.grain.filter((name) => names.has(name));
  orderBounds(d);
  for (const c of d.columns) {
    const on = c.required_when && d.columns.find((o) => o.name === c.required_when!.column);
    if (c.required_when && (!on || c.required || on === c)) delete c.required_when;
    else if (c.required_when && on) {
      const allowed = on.enum ?? domain(on.type);
      c.required_when.in = c.required_when.in.filter((v) => allowed.includes(v));
      if (c.required_when.in.length === 0) delete c.required_when;
    }
    keepDefaultFitting(c);
  }
  if (d.minRows !== undefined && d.maxRows !== undefined && d.minRows > d.maxRows) [d.minRows, d.maxRows] = [d.maxRows, d.minRows];
}
