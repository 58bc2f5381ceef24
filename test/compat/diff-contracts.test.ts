import { describe, expect, it } from 'vitest';
import { CHANGE_IDS, type Bump, type ChangeClass, type ChangeId, type DeclaredBump } from '../../lib/compat/contract-diff.js';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import { GateError } from '../../lib/errors.js';
import { KEY_CASES } from './rule-key-cases.js';
import { addColumn, AMOUNT, applyEdits, consumersBlock, COUPON, loadText, ORDERED, ORDERS_V1, REFUND, setMode, setVersion, UPDATED, type Edit, type Mode } from './contract-edits.js';

interface Case {
  readonly name: string;
  /** Applied to both versions first, then `old` to the old one and `next` to the new one. */
  readonly both?: readonly Edit[];
  readonly old?: readonly Edit[];
  readonly next?: readonly Edit[];
  readonly mode?: Mode;
  /** The new version; the old one is 1.2.0. */
  readonly version?: string;
  readonly changes: readonly (readonly [ChangeId, string | null, ChangeClass])[];
  readonly required: Bump;
  readonly declared?: DeclaredBump;
  readonly ok: boolean;
}

const COUPON_PLAIN = '    - { name: coupon, type: string }';

function diffCase(c: Case) {
  const both = [...(c.both ?? []), ...(c.mode ? [setMode(c.mode)] : [])];
  const old = applyEdits(ORDERS_V1, [...both, ...(c.old ?? [])]);
  const next = applyEdits(ORDERS_V1, [...both, ...(c.next ?? []), setVersion(c.version ?? '1.3.0')]);
  return diffContracts(loadText(old), loadText(next));
}

/** A loosening a reader may notice (nulls, repeats): flagged, but breaking where old readers are promised new data. */
function flaggedInEveryMode(name: string, edits: Pick<Case, 'both' | 'old' | 'next'>, id: ChangeId, column: string | null): Case[] {
  return (['backward', 'forward', 'full', 'none'] as const).map((mode) => {
    const breaks = mode === 'forward' || mode === 'full';
    const cls = breaks ? 'breaking' : 'flagged';
    return { name: `${name} is ${cls} in compat.mode ${mode}`, ...edits, mode, changes: [[id, column, cls]], required: breaks ? 'major' : 'minor', ok: !breaks };
  });
}

/** The same edit under every compat mode: a loosening breaks only the modes that promise old readers new data. */
function inEveryMode(name: string, edits: Pick<Case, 'both' | 'old' | 'next'>, id: ChangeId, column: string | null): Case[] {
  return (['backward', 'forward', 'full', 'none'] as const).map((mode) => {
    const breaks = mode === 'forward' || mode === 'full';
    const cls = breaks ? 'breaking' : 'non-breaking';
    return { name: `${name} is ${cls} in compat.mode ${mode}`, ...edits, mode, changes: [[id, column, cls]], required: breaks ? 'major' : 'minor', ok: !breaks };
  });
}

const CASES: readonly Case[] = [
  { name: 'removing a column is breaking', next: [[`${COUPON}\n`, '']], changes: [['column_removed', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'removing a column with a major bump is enough', next: [[`${COUPON}\n`, '']], version: '2.0.0', changes: [['column_removed', 'coupon', 'breaking']], required: 'major', declared: 'major', ok: true },
  { name: 'adding an optional column is non-breaking', next: [addColumn('{ name: channel, type: string }')], changes: [['column_added', 'channel', 'non-breaking']], required: 'minor', ok: true },
  { name: 'adding a required column without a default is breaking', next: [addColumn('{ name: channel, type: string, required: true }')], changes: [['column_added', 'channel', 'breaking']], required: 'major', ok: false },
  { name: 'adding a required column with a default is non-breaking', next: [addColumn('{ name: channel, type: string, required: true, default: web }')], changes: [['column_added', 'channel', 'non-breaking']], required: 'minor', ok: true },
  { name: 'adding a conditionally required column without a default is breaking', next: [addColumn('{ name: channel, type: string, required_when: { column: status, in: [paid] } }')], changes: [['column_added', 'channel', 'breaking']], required: 'major', ok: false },
  ...inEveryMode('adding an optional column that the old version would reject as undeclared', { both: [['extra_columns: allow', 'extra_columns: reject']], next: [addColumn('{ name: channel, type: string }')] }, 'column_added', 'channel'),
  ...inEveryMode('widening float32 to float64', { old: [[REFUND, REFUND.replace('float64', 'float32')]] }, 'type_widened', 'refund_amount'),
  { name: 'widening int32 to int64 is non-breaking', both: [addColumn('{ name: quantity, type: int32 }')], next: [['type: int32', 'type: int64']], changes: [['type_widened', 'quantity', 'non-breaking']], required: 'minor', ok: true },
  { name: 'widening int32 to float64 is non-breaking', both: [addColumn('{ name: quantity, type: int32 }')], next: [['type: int32', 'type: float64']], changes: [['type_widened', 'quantity', 'non-breaking']], required: 'minor', ok: true },
  { name: 'raising a decimal precision at the same scale is a widening', next: [[AMOUNT, AMOUNT.replace('decimal(12,2)', 'decimal(14,2)')]], changes: [['type_widened', 'amount', 'non-breaking']], required: 'minor', ok: true },
  { name: 'changing a decimal scale is a breaking type change', next: [[AMOUNT, AMOUNT.replace('decimal(12,2)', 'decimal(12,3)')]], changes: [['type_changed', 'amount', 'breaking']], required: 'major', ok: false },
  { name: 'narrowing int64 to int32 is a breaking type change', both: [addColumn('{ name: quantity, type: int64 }')], next: [['type: int64', 'type: int32']], changes: [['type_changed', 'quantity', 'breaking']], required: 'major', ok: false },
  { name: 'string to binary is a type change, not a widening', both: [[COUPON, COUPON_PLAIN]], next: [[COUPON_PLAIN, COUPON_PLAIN.replace('string', 'binary')]], changes: [['type_changed', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'making an optional column required is breaking', next: [[COUPON, COUPON.replace(' }', ', required: true }')]], changes: [['became_required', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'adding a required_when condition is breaking', next: [[COUPON, COUPON.replace(' }', ', required_when: { column: status, in: [paid] } }')]], changes: [['became_required', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'a required_when condition that covers more values is breaking', next: [['in: [cancelled]', 'in: [cancelled, paid]']], changes: [['became_required', 'refund_amount', 'breaking']], required: 'major', ok: false },
  ...flaggedInEveryMode('making a required column optional', { next: [[UPDATED, UPDATED.replace(', required: true', '')]] }, 'became_optional', 'updated_at'),
  ...flaggedInEveryMode('dropping a required_when condition', { next: [[REFUND, '    - { name: refund_amount, type: float64 }']] }, 'became_optional', 'refund_amount'),
  { name: 'giving a required column a default lets files without it through', next: [[UPDATED, UPDATED.replace(' }', ', default: "2026-01-01T00:00:00Z" }')]], changes: [['default_changed', 'updated_at', 'non-breaking']], required: 'minor', ok: true },
  { name: 'giving a required column a default is breaking in compat.mode forward', mode: 'forward', next: [[UPDATED, UPDATED.replace(' }', ', default: "2026-01-01T00:00:00Z" }')]], changes: [['default_changed', 'updated_at', 'breaking']], required: 'major', ok: false },
  { name: 'taking the default of a required column away is breaking', old: [[UPDATED, UPDATED.replace(' }', ', default: "2026-01-01T00:00:00Z" }')]], changes: [['default_changed', 'updated_at', 'breaking']], required: 'major', ok: false },
  { name: 'changing the default of an optional column is flagged', both: [[COUPON, COUPON.replace(' }', ', default: none }')]], next: [['default: none', 'default: NONE']], changes: [['default_changed', 'coupon', 'flagged']], required: 'minor', ok: true },
  { name: 'removing an enum value is breaking', next: [['enum: [placed, paid, cancelled]', 'enum: [placed, paid]']], changes: [['enum_value_removed', 'status', 'breaking']], required: 'major', ok: false },
  { name: 'putting an enum on a free column is breaking', next: [[COUPON, COUPON.replace(' }', ', enum: [SPRING, SUMMER] }')]], changes: [['enum_value_removed', 'coupon', 'breaking']], required: 'major', ok: false },
  ...inEveryMode('adding an enum value', { next: [['enum: [placed, paid, cancelled]', 'enum: [placed, paid, cancelled, refunded]']] }, 'enum_value_added', 'status'),
  { name: 'raising a min is breaking', next: [['min: 0', 'min: 1']], changes: [['range_tightened', 'amount', 'breaking']], required: 'major', ok: false },
  { name: 'adding a max is breaking', next: [['min: 0', 'min: 0, max: 1000000']], changes: [['range_tightened', 'amount', 'breaking']], required: 'major', ok: false },
  { name: 'adding not_in_future is a breaking range change', next: [[UPDATED, UPDATED.replace(' }', ', not_in_future: true }')]], changes: [['range_tightened', 'updated_at', 'breaking']], required: 'major', ok: false },
  { name: 'rejecting undeclared columns is a breaking range change of the dataset', next: [['extra_columns: allow', 'extra_columns: reject']], changes: [['range_tightened', null, 'breaking']], required: 'major', ok: false },
  ...inEveryMode('lowering a min', { next: [['min: 0', 'min: -100']] }, 'range_loosened', 'amount'),
  { name: 'dropping a min is non-breaking in compat.mode backward', next: [[', min: 0', '']], changes: [['range_loosened', 'amount', 'non-breaking']], required: 'minor', ok: true },
  { name: 'dropping not_in_future is non-breaking in compat.mode backward', next: [[ORDERED, ORDERED.replace(', not_in_future: true', '')]], changes: [['range_loosened', 'ordered_at', 'non-breaking']], required: 'minor', ok: true },
  ...inEveryMode('allowing undeclared columns', { both: [['extra_columns: allow', 'extra_columns: reject']], next: [['extra_columns: reject', 'extra_columns: allow']] }, 'range_loosened', null),
  { name: 'changing a pattern is breaking', next: [['{8}$', '{12}$']], changes: [['pattern_changed', 'order_id', 'breaking']], required: 'major', ok: false },
  ...inEveryMode('dropping a pattern', { next: [[', pattern: "^ord_[0-9a-f]{8}$"', '']] }, 'pattern_changed', 'order_id'),
  { name: 'lowering a max_length is breaking', next: [['max_length: 32', 'max_length: 16']], changes: [['length_tightened', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'adding a min_length is breaking', next: [['max_length: 32', 'min_length: 1, max_length: 32']], changes: [['length_tightened', 'coupon', 'breaking']], required: 'major', ok: false },
  ...inEveryMode('raising a max_length', { next: [['max_length: 32', 'max_length: 64']] }, 'length_loosened', 'coupon'),
  { name: 'requiring a column to be unique is breaking', next: [[COUPON, COUPON.replace(' }', ', unique: true }')]], changes: [['unique_added', 'coupon', 'breaking']], required: 'major', ok: false },
  ...flaggedInEveryMode('dropping unique', { old: [[COUPON, COUPON.replace(' }', ', unique: true }')]] }, 'unique_removed', 'coupon'),
  { name: 'changing the grain is breaking', next: [['grain: [order_id]', 'grain: [order_id, status]']], changes: [['grain_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'listing the same grain in another order changes nothing', both: [['grain: [order_id]', 'grain: [order_id, status]']], next: [['grain: [order_id, status]', 'grain: [status, order_id]']], changes: [], required: 'none', ok: true },
  { name: 'changing the partition layout is breaking', next: [['partition: "dt={ds}"', 'partition: "dt={ds}/hr={hh}"']], changes: [['partition_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'changing the file format is a breaking partition change', next: [['format: parquet', 'format: csv']], changes: [['partition_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'changing the CSV delimiter is a breaking partition change', both: [['format: parquet', 'format: csv']], next: [['format: csv', "format: csv, csv: { delimiter: ';' }"]], changes: [['partition_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'spelling nulls another way in CSV is a breaking partition change', both: [['format: parquet', "format: csv, csv: { null_values: [''] }"]], next: [["null_values: ['']", "null_values: ['NULL']"]], changes: [['partition_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'writing out the default CSV dialect is no change', both: [['format: parquet', 'format: csv']], next: [['format: csv', "format: csv, csv: { delimiter: ',', header: true, encoding: utf-8 }"]], changes: [], required: 'none', declared: 'minor', ok: true },
  { name: 'changing the sla is flagged', next: [['max_lag_hours: 26', 'max_lag_hours: 30']], changes: [['sla_changed', null, 'flagged']], required: 'minor', ok: true },
  { name: 'raising min_rows is breaking', next: [['min_rows: 1000', 'min_rows: 2000']], changes: [['sla_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'lowering max_rows is breaking', next: [['max_rows: 5000000', 'max_rows: 100000']], changes: [['sla_changed', null, 'breaking']], required: 'major', ok: false },
  ...inEveryMode('lowering min_rows', { next: [['min_rows: 1000', 'min_rows: 500']] }, 'sla_changed', null),
  { name: 'deprecating the version is a flagged status change', next: [['status: active', 'status: deprecated\nsunset: 2027-06-30']], changes: [['status_changed', null, 'flagged']], required: 'minor', ok: true },
  { name: 'rewording the description needs only a patch', next: [['as of the end', 'as at the end']], version: '1.2.1', changes: [['description_changed', null, 'cosmetic']], required: 'patch', declared: 'patch', ok: true },
  { name: 'describing a column needs only a patch', next: [[COUPON, COUPON.replace(' }', ', description: promotion code }')]], version: '1.2.1', changes: [['description_changed', 'coupon', 'cosmetic']], required: 'patch', declared: 'patch', ok: true },
  { name: 'a patch bump is not enough for a new optional column', next: [addColumn('{ name: channel, type: string }')], version: '1.2.1', changes: [['column_added', 'channel', 'non-breaking']], required: 'minor', declared: 'patch', ok: false },
  { name: 'a lower version is an error even without other changes', version: '1.1.0', changes: [['version_decreased', null, 'error']], required: 'none', declared: 'version_decreased', ok: false },
  { name: 'an unchanged contract at the same version needs no bump', version: '1.2.0', changes: [], required: 'none', declared: 'none', ok: true },
  { name: 'an unchanged version with a change is not enough', next: [['max_lag_hours: 26', 'max_lag_hours: 30']], version: '1.2.0', changes: [['sla_changed', null, 'flagged']], required: 'minor', declared: 'none', ok: false },
  { name: 'compat.mode none reports a breaking change but asks only a minor bump', mode: 'none', next: [[`${COUPON}\n`, '']], changes: [['column_removed', 'coupon', 'breaking']], required: 'minor', ok: true },
  { name: 'relaxing compat.mode to none in the same change waives nothing', next: [[`${COUPON}\n`, ''], setMode('none')], changes: [['column_removed', 'coupon', 'breaking']], required: 'major', ok: false },
];

describe('diffContracts classifies each change of a contract', () => {
  it.each(CASES)('$name', (c) => {
    const diff = diffCase(c);
    expect(diff.changes.map((x) => [x.change, x.column, x.class])).toEqual(c.changes);
    expect({ required: diff.required_bump, declared: diff.declared_bump, ok: diff.ok }).toEqual({ required: c.required, declared: c.declared ?? 'minor', ok: c.ok });
  });

  it('the table above and the rule-key cases (rule-key-cases.ts) cover every change id', () => {
    const covered = new Set([...CASES, ...KEY_CASES].flatMap((c) => c.changes.map(([id]) => id)));
    expect([...CHANGE_IDS].filter((id) => !covered.has(id))).toEqual([]);
  });

  it('explains a mode-dependent class with the mode in the message', () => {
    const forward = diffCase({ name: '', mode: 'forward', next: [['max_length: 32', 'max_length: 64']], changes: [], required: 'major', ok: false });
    expect(forward.changes[0]?.message).toContain('compat.mode forward');
    const backward = diffCase({ name: '', next: [['max_length: 32', 'max_length: 64']], changes: [], required: 'minor', ok: true });
    expect(backward.changes[0]?.message).toContain('old data stays valid');
  });

  it('says in the message that compat.mode none does not enforce a breaking change', () => {
    const diff = diffCase({ name: '', mode: 'none', next: [[`${COUPON}\n`, '']], changes: [], required: 'minor', ok: true });
    expect(diff.changes[0]?.message).toContain('compat.mode none: reported, but it asks only a minor bump');
  });

  it('names temporal bounds as ISO timestamps, not epoch milliseconds', () => {
    const diff = diffCase({ name: '', next: [[UPDATED, UPDATED.replace(' }', ', min: "2020-01-01T00:00:00Z" }')]], changes: [], required: 'major', ok: false });
    expect(diff.changes[0]?.message).toContain('min none → 2020-01-01T00:00:00.000Z');
  });

  it('does not repeat rule changes under a type change to an unrelated type', () => {
    const diff = diffCase({ name: '', next: [[COUPON, '    - { name: coupon, type: int64 }']], changes: [], required: 'major', ok: false });
    expect(diff.changes.map((c) => c.change)).toEqual(['type_changed']);
  });

  it('refuses to diff two different datasets', () => {
    const other = applyEdits(ORDERS_V1, [['name: orders', 'name: invoices']]);
    expect(() => diffContracts(loadText(ORDERS_V1), loadText(other))).toThrow(GateError);
  });
});

describe('diffContracts spots a likely rename', () => {
  it('calls one removed and one added column of the same type a likely rename, in both messages', () => {
    const diff = diffCase({ name: '', next: [[AMOUNT, AMOUNT.replace('name: amount', 'name: total_amount')]], changes: [], required: 'major', ok: false });
    expect(diff.changes.map((c) => [c.change, c.column, c.class])).toEqual([['column_removed', 'amount', 'breaking'], ['column_added', 'total_amount', 'breaking']]);
    expect(diff.changes[0]?.message).toContain('likely renamed to "total_amount"');
    expect(diff.changes[1]?.message).toContain('likely a rename of "amount"');
  });

  it('does not call it a rename when the types differ', () => {
    const diff = diffCase({ name: '', next: [addColumn('{ name: total, type: int64 }'), [`${COUPON}\n`, '']], changes: [], required: 'major', ok: false });
    expect(diff.changes.map((c) => c.change)).toEqual(['column_removed', 'column_added']);
    expect(diff.changes.map((c) => c.message).join('\n')).not.toContain('rename');
  });
});

describe('diffContracts names the consumers a change hits', () => {
  const finance = '{ team: finance, notify: [finance@example.com], columns: [amount, status] }';
  const bi = '{ team: bi, notify: [bi@example.com] }';

  it('names the consumers that list a removed column, and those that list no columns as possibly affected', () => {
    const diff = diffCase({
      name: '',
      old: [consumersBlock([finance, bi])],
      next: [consumersBlock([finance.replace('amount, ', ''), bi]), [`${AMOUNT}\n`, '']],
      version: '2.0.0', changes: [], required: 'major', ok: true,
    });
    const [removed] = diff.changes;
    expect(removed?.consumers).toEqual(['finance', 'bi']);
    expect(removed?.message).toContain('read by finance; possibly read by bi (lists no columns)');
  });

  it('still calls a change to a column no registered consumer reads breaking, and says no one reads it', () => {
    const diff = diffCase({ name: '', both: [consumersBlock([finance])], next: [[`${COUPON}\n`, '']], changes: [], required: 'major', ok: false });
    expect(diff.changes[0]).toMatchObject({ change: 'column_removed', class: 'breaking' });
    expect(diff.changes[0]?.message).toContain('no registered consumer reads it');
    expect(diff.changes[0]).not.toHaveProperty('consumers');
  });

  it('names every consumer for a change of the whole dataset', () => {
    const diff = diffCase({ name: '', both: [consumersBlock([finance, bi])], next: [['grain: [order_id]', 'grain: [order_id, status]']], changes: [], required: 'major', ok: false });
    expect(diff.changes[0]?.consumers).toEqual(['finance', 'bi']);
  });

  it('names no consumer for an added column, which no one can read yet', () => {
    const diff = diffCase({ name: '', both: [consumersBlock([bi])], next: [addColumn('{ name: channel, type: string }')], changes: [], required: 'minor', ok: true });
    expect(diff.changes[0]).not.toHaveProperty('consumers');
  });
});

describe('diffContracts JSON shape', () => {
  it('keeps the documented key order for the diff and each change', () => {
    const diff = diffCase({ name: '', both: [consumersBlock(['{ team: bi, notify: [bi@example.com] }'])], next: [[`${COUPON}\n`, '']], changes: [], required: 'major', ok: false });
    expect(Object.keys(diff)).toEqual(['changes', 'required_bump', 'declared_bump', 'ok']);
    expect(Object.keys(diff.changes[0] ?? {})).toEqual(['change', 'column', 'class', 'message', 'consumers']);
  });
});
