import type { Bump, ChangeClass, ChangeId } from '../../lib/compat/contract-diff.js';
import type { ColumnSpec, Contract, ReferenceRow, RowTolerance, Sla } from '../../lib/contract/model.js';
import { loadText, ORDERS_V1, type Mode } from './contract-edits.js';

/**
 * Contract versions for the rule keys of issue 17 (severity, on_violation, references,
 * warn_lag_hours, volume_vs_history), built as edits of the loaded orders contract so that these
 * tests do not depend on how the loader spells the keys.
 */
export type Edit = (contract: Contract) => Contract;

export const ORDERS = loadText(ORDERS_V1);

export const column = (name: string, edit: (c: ColumnSpec) => ColumnSpec): Edit => (contract) => {
  if (!contract.schema.columns.some((c) => c.name === name)) throw new Error(`no column ${name} to edit`);
  return { ...contract, schema: { ...contract.schema, columns: contract.schema.columns.map((c) => (c.name === name ? edit(c) : c)) } };
};
export const schema = (edit: Partial<Contract['schema']>): Edit => (contract) => ({ ...contract, schema: { ...contract.schema, ...edit } });
export const sla = (edit: Partial<Sla>): Edit => (contract) => ({ ...contract, sla: { ...contract.sla!, ...edit } });
export const tolerance = (onViolation: RowTolerance | undefined): Edit => ({ onViolation: _dropped, ...contract }) => (onViolation ? { ...contract, onViolation } : contract);
export const mode = (m: Mode): Edit => (contract) => ({ ...contract, compat: { mode: m } });
export const version = (text: string): Edit => (contract) => {
  const [major, minor, patch] = text.split('.').map(Number) as [number, number, number];
  return { ...contract, version: { major, minor, patch, text } };
};
export const addColumn = (spec: Partial<ColumnSpec> & { name: string }): Edit => (contract) => ({
  ...contract,
  schema: { ...contract.schema, columns: [...contract.schema.columns, { type: { kind: 'string' }, typeText: 'string', required: false, unique: false, notInFuture: false, ...spec }] },
});

export const CUSTOMERS = { contract: 'customers', column: 'customer_id' } as const;

/** The contract's reference rows, replaced. */
export const referenceRows = (rows: readonly ReferenceRow[]): Edit => ({ referenceRows: _dropped, ...contract }) => (rows.length > 0 ? { ...contract, referenceRows: rows } : contract);
/** Reference order ord_00001001, expected to total 100.00 (pre-tax). */
export const REFERENCE_ORDER: ReferenceRow = { key: [{ column: 'order_id', value: 'ord_00001001' }], expect: [{ column: 'amount', value: 100 }], required: false };
const withAmount = (cell: Partial<ReferenceRow['expect'][number]>, row: Partial<ReferenceRow> = {}): ReferenceRow => ({ ...REFERENCE_ORDER, ...row, expect: [{ ...REFERENCE_ORDER.expect[0]!, ...cell }] });

export interface KeyCase {
  readonly name: string;
  readonly both?: readonly Edit[];
  readonly old?: readonly Edit[];
  readonly next?: readonly Edit[];
  readonly mode?: Mode;
  readonly changes: readonly (readonly [ChangeId, string | null, ChangeClass])[];
  readonly required: Bump;
  readonly ok: boolean;
}

/** The old version is 1.2.0, the new one 1.3.0 (a minor bump). */
export function versionsOf(c: KeyCase): [Contract, Contract] {
  const apply = (edits: readonly Edit[]) => edits.reduce((contract, edit) => edit(contract), ORDERS);
  const both = [...(c.both ?? []), ...(c.mode ? [mode(c.mode)] : [])];
  return [apply([...both, ...(c.old ?? [])]), apply([...both, ...(c.next ?? []), version('1.3.0')])];
}

/** A loosening is breaking only where old readers are promised new data: forward and full. */
function inEveryMode(name: string, edits: Pick<KeyCase, 'both' | 'old' | 'next'>, id: ChangeId, col: string | null): KeyCase[] {
  return (['backward', 'forward', 'full', 'none'] as const).map((m) => {
    const breaks = m === 'forward' || m === 'full';
    const cls = breaks ? 'breaking' : 'non-breaking';
    return { name: `${name} is ${cls} in compat.mode ${m}`, ...edits, mode: m, changes: [[id, col, cls]], required: breaks ? 'major' : 'minor', ok: !breaks };
  });
}

const warnMin = column('amount', (c) => ({ ...c, severity: { min: 'warn' } }));
const couponEnum = column('coupon', (c) => ({ ...c, enum: ['SPRING'] }));

export const KEY_CASES: readonly KeyCase[] = [
  { name: 'tightening a severity from warn to error is breaking', old: [warnMin], changes: [['severity_tightened', 'amount', 'breaking']], required: 'major', ok: false },
  ...inEveryMode('loosening a severity from error to warn', { next: [warnMin] }, 'severity_loosened', 'amount'),
  { name: 'a severity for a rule the column does not declare changes nothing', next: [column('status', (c) => ({ ...c, severity: { min: 'warn' } }))], changes: [], required: 'none', ok: true },
  { name: 'raising a min that is severity warn is only flagged', both: [warnMin], next: [column('amount', (c) => ({ ...c, min: 1 }))], changes: [['range_tightened', 'amount', 'flagged']], required: 'minor', ok: true },
  { name: 'adding an enum at severity warn is only flagged', next: [column('coupon', (c) => ({ ...c, enum: ['SPRING'], severity: { enum: 'warn' } }))], changes: [['enum_value_removed', 'coupon', 'flagged']], required: 'minor', ok: true },
  {
    name: 'raising a min while making it a warning is a flagged range change and a severity loosening',
    next: [warnMin, column('amount', (c) => ({ ...c, min: 1 }))],
    changes: [['range_tightened', 'amount', 'flagged'], ['severity_loosened', 'amount', 'non-breaking']], required: 'minor', ok: true,
  },
  { name: 'making a column required at severity warn is only flagged', next: [column('coupon', (c) => ({ ...c, required: true, severity: { required: 'warn' } }))], changes: [['became_required', 'coupon', 'flagged']], required: 'minor', ok: true },
  { name: 'adding a column required at severity warn, without a default, is non-breaking', next: [addColumn({ name: 'channel', required: true, severity: { required: 'warn' } })], changes: [['column_added', 'channel', 'non-breaking']], required: 'minor', ok: true },
  { name: 'tightening the enum severity of a column is breaking', both: [couponEnum], old: [column('coupon', (c) => ({ ...c, severity: { enum: 'warn' } }))], changes: [['severity_tightened', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'tightening the grain severity is breaking', old: [schema({ severity: { grain: 'warn' } })], changes: [['severity_tightened', null, 'breaking']], required: 'major', ok: false },
  ...inEveryMode('loosening the min_rows severity', { next: [sla({ severity: { min_rows: 'warn' } })] }, 'severity_loosened', null),
  { name: 'tightening the freshness severity is breaking', old: [sla({ severity: { freshness: 'warn' } })], changes: [['severity_tightened', null, 'breaking']], required: 'major', ok: false },

  { name: 'warning about undeclared columns that were allowed is only flagged', next: [schema({ extraColumns: 'warn' })], changes: [['range_tightened', null, 'flagged']], required: 'minor', ok: true },
  { name: 'rejecting undeclared columns that were a warning is breaking', both: [schema({ extraColumns: 'warn' })], next: [schema({ extraColumns: 'reject' })], changes: [['range_tightened', null, 'breaking']], required: 'major', ok: false },
  ...inEveryMode('only warning about undeclared columns that were rejected', { both: [schema({ extraColumns: 'reject' })], next: [schema({ extraColumns: 'warn' })] }, 'range_loosened', null),
  ...inEveryMode('rejecting undeclared columns at severity warn', { both: [schema({ extraColumns: 'reject' })], next: [schema({ extraColumns: 'reject', severity: { extra_columns: 'warn' } })] }, 'severity_loosened', null),
  { name: 'extra_columns warn and reject at severity warn are the same rule, a patch', both: [schema({ extraColumns: 'warn' })], next: [schema({ extraColumns: 'reject', severity: { extra_columns: 'warn' } })], changes: [['description_changed', null, 'cosmetic']], required: 'patch', ok: true },
  {
    name: 'adding a column is non-breaking in compat.mode full when the old version rejects undeclared columns only at severity warn',
    mode: 'full', both: [schema({ extraColumns: 'reject', severity: { extra_columns: 'warn' } })], next: [addColumn({ name: 'channel' })],
    changes: [['column_added', 'channel', 'non-breaking']], required: 'minor', ok: true,
  },

  ...inEveryMode('adding on_violation', { next: [tolerance({ rowTolerance: 0.02 })] }, 'tolerance_loosened', null),
  ...inEveryMode('raising max_invalid_rows', { both: [tolerance({ maxInvalidRows: 10 })], next: [tolerance({ maxInvalidRows: 100 })] }, 'tolerance_loosened', null),
  { name: 'lowering row_tolerance is breaking', both: [tolerance({ rowTolerance: 0.05 })], next: [tolerance({ rowTolerance: 0.01 })], changes: [['tolerance_tightened', null, 'breaking']], required: 'major', ok: false },
  { name: 'removing on_violation is breaking', old: [tolerance({ maxInvalidRows: 10 })], changes: [['tolerance_tightened', null, 'breaking']], required: 'major', ok: false },
  { name: 'trading row_tolerance for max_invalid_rows is breaking, as they cannot be compared', old: [tolerance({ rowTolerance: 0.01 })], next: [tolerance({ maxInvalidRows: 1000 })], changes: [['tolerance_tightened', null, 'breaking']], required: 'major', ok: false },
  { name: 'a tolerance of zero rows is no tolerance', next: [tolerance({ maxInvalidRows: 0 })], changes: [], required: 'none', ok: true },

  { name: 'adding a reference is breaking', next: [column('coupon', (c) => ({ ...c, references: CUSTOMERS }))], changes: [['reference_added', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'adding a reference at severity warn is only flagged', next: [column('coupon', (c) => ({ ...c, references: CUSTOMERS, severity: { references: 'warn' } }))], changes: [['reference_added', 'coupon', 'flagged']], required: 'minor', ok: true },
  ...inEveryMode('removing a reference', { old: [column('coupon', (c) => ({ ...c, references: CUSTOMERS }))] }, 'reference_removed', 'coupon'),
  { name: 'referencing another column is breaking', both: [column('coupon', (c) => ({ ...c, references: CUSTOMERS }))], next: [column('coupon', (c) => ({ ...c, references: { ...CUSTOMERS, column: 'code' } }))], changes: [['reference_changed', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'pinning a referenced partition is a breaking change of the target', both: [column('coupon', (c) => ({ ...c, references: CUSTOMERS }))], next: [column('coupon', (c) => ({ ...c, references: { ...CUSTOMERS, major: 2, partition: 'dt=2026-11-30' } }))], changes: [['reference_changed', 'coupon', 'breaking']], required: 'major', ok: false },
  { name: 'tightening the severity of a reference is breaking', both: [column('coupon', (c) => ({ ...c, references: CUSTOMERS }))], old: [column('coupon', (c) => ({ ...c, severity: { references: 'warn' } }))], changes: [['severity_tightened', 'coupon', 'breaking']], required: 'major', ok: false },

  { name: 'adding a reference row is breaking', next: [referenceRows([REFERENCE_ORDER])], changes: [['reference_row_added', null, 'breaking']], required: 'major', ok: false },
  { name: 'adding a reference row at severity warn is only flagged', next: [referenceRows([{ ...REFERENCE_ORDER, severity: 'warn' }])], changes: [['reference_row_added', null, 'flagged']], required: 'minor', ok: true },
  ...inEveryMode('removing a reference row', { old: [referenceRows([REFERENCE_ORDER])] }, 'reference_row_removed', null),
  { name: 'changing a reference row\'s expected value is breaking: the column means something else', both: [referenceRows([REFERENCE_ORDER])], next: [referenceRows([withAmount({ value: 108 })])], changes: [['reference_row_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'changing an expected value is breaking even in compat.mode full', mode: 'full', both: [referenceRows([REFERENCE_ORDER])], next: [referenceRows([withAmount({ value: 108 })])], changes: [['reference_row_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'tightening a reference tolerance is breaking', both: [referenceRows([withAmount({ absolute: 0.05 })])], next: [referenceRows([withAmount({ relative: 0.0001 })])], changes: [['reference_row_changed', null, 'breaking']], required: 'major', ok: false },
  ...inEveryMode('widening a reference tolerance', { both: [referenceRows([REFERENCE_ORDER])], next: [referenceRows([withAmount({ absolute: 0.01 })])] }, 'reference_row_changed', null),
  { name: 'requiring a reference row is breaking', both: [referenceRows([REFERENCE_ORDER])], next: [referenceRows([{ ...REFERENCE_ORDER, required: true }])], changes: [['reference_row_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'expecting one more column of a reference row is breaking', both: [referenceRows([REFERENCE_ORDER])], next: [referenceRows([{ ...REFERENCE_ORDER, expect: [...REFERENCE_ORDER.expect, { column: 'status', value: 'paid' }] }])], changes: [['reference_row_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'tightening a reference row\'s severity is breaking', both: [referenceRows([REFERENCE_ORDER])], old: [referenceRows([{ ...REFERENCE_ORDER, severity: 'warn' }])], changes: [['severity_tightened', null, 'breaking']], required: 'major', ok: false },
  { name: 'describing a reference row needs only a patch', both: [referenceRows([REFERENCE_ORDER])], next: [referenceRows([{ ...REFERENCE_ORDER, description: 'the test order' }])], changes: [['description_changed', null, 'cosmetic']], required: 'patch', ok: true },

  { name: 'adding warn_lag_hours is a flagged sla change', next: [sla({ warnLagHours: 20 })], changes: [['sla_changed', null, 'flagged']], required: 'minor', ok: true },
  { name: 'adding volume_vs_history is breaking', next: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.5 } })], changes: [['sla_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'raising min_ratio is breaking', both: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.5 } })], next: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.8 } })], changes: [['sla_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'giving volume_vs_history a max_ratio is breaking', both: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.5 } })], next: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.5, maxRatio: 3 } })], changes: [['sla_changed', null, 'breaking']], required: 'major', ok: false },
  ...inEveryMode('raising max_ratio', { both: [sla({ volumeVsHistory: { lookback: 7, maxRatio: 2 } })], next: [sla({ volumeVsHistory: { lookback: 7, maxRatio: 4 } })] }, 'sla_changed', null),
  ...inEveryMode('removing volume_vs_history', { old: [sla({ volumeVsHistory: { lookback: 7, maxRatio: 2 } })] }, 'sla_changed', null),
  { name: 'another lookback is breaking', both: [sla({ volumeVsHistory: { lookback: 7, maxRatio: 2 } })], next: [sla({ volumeVsHistory: { lookback: 28, maxRatio: 2 } })], changes: [['sla_changed', null, 'breaking']], required: 'major', ok: false },
  { name: 'adding volume_vs_history at severity warn is only flagged', next: [sla({ volumeVsHistory: { lookback: 14, minRatio: 0.5 }, severity: { volume_vs_history: 'warn' } })], changes: [['sla_changed', null, 'flagged']], required: 'minor', ok: true },
];
