import type { Contract, ExpectedCell, ReferenceRow, Severity } from '../contract/model.js';
import { change, loosenedClass, loosenedWhy, type CompatMode, type RawChange } from './contract-diff.js';
import { warnNote, weighed } from './rule-weight.js';

const TIGHTENED = 'a partition once valid is now rejected';

/**
 * `reference_rows`, matched by key. A row or an expectation that appears, a tolerance that narrows
 * or a row that becomes required rejects partitions the old version published: breaking, as any
 * tightening. One that goes, widens or stops being required accepts more: loosened, by the mode.
 * A changed expected value is a new meaning of the column (pre-tax to post-tax): the old value is
 * now rejected, so breaking in every mode. A row at severity warn stops nothing: its changes are
 * only flagged (rule-weight.ts), and a change of its severity is reported on its own.
 */
export function referenceRowChanges(old: Contract, next: Contract, mode: CompatMode): RawChange[] {
  const before = byKey(old.referenceRows);
  const after = byKey(next.referenceRows);
  const out: RawChange[] = [];
  for (const [key, row] of after) {
    const was = before.get(key);
    const note = warnNote('the reference row', was ? weight(was) : undefined, weight(row));
    if (!was) out.push(weighed('reference_row_added', null, 'breaking', `reference row ${key} was added${row.required ? ' (required)' : ''}`, TIGHTENED, note));
    else out.push(...rowChanges(key, was, row, mode, note));
  }
  for (const [key, row] of before) {
    if (after.has(key)) continue;
    out.push(weighed('reference_row_removed', null, loosenedClass(mode), `reference row ${key} was removed`, loosenedWhy(mode), warnNote('the reference row', weight(row), undefined)));
  }
  return out;
}

function rowChanges(key: string, old: ReferenceRow, next: ReferenceRow, mode: CompatMode, note: string | undefined): RawChange[] {
  const out: RawChange[] = [];
  const tighter = (text: string) => out.push(weighed('reference_row_changed', null, 'breaking', `reference row ${key}: ${text}`, TIGHTENED, note));
  const looser = (text: string) => out.push(weighed('reference_row_changed', null, loosenedClass(mode), `reference row ${key}: ${text}`, loosenedWhy(mode), note));
  if (!old.required && next.required) tighter('now required');
  if (old.required && !next.required) looser('no longer required');
  for (const cell of next.expect) {
    const was = old.expect.find((c) => c.column === cell.column);
    if (!was) tighter(`${cell.column} is now expected to be ${show(cell)}`);
    else if (String(was.value) !== String(cell.value)) {
      out.push(weighed('reference_row_changed', null, 'breaking', `reference row ${key}: ${cell.column} expected ${show(was)} → ${show(cell)}`, 'a new meaning of the column: data with the old value, once valid, is now rejected', note));
    } else if (width(was) !== width(cell)) (width(cell) < width(was) ? tighter : looser)(`${cell.column} ${show(was)} → ${show(cell)}`);
  }
  for (const cell of old.expect) if (!next.expect.some((c) => c.column === cell.column)) looser(`${cell.column} is no longer expected`);
  if (weight(old) !== weight(next)) {
    const text = `reference row ${key} severity ${weight(old)} → ${weight(next)}`;
    out.push(weight(next) === 'error' ? change('severity_tightened', null, 'breaking', `${text}: a mismatch once published with a warning now stops the partition`) : change('severity_loosened', null, loosenedClass(mode), `${text}: a mismatch no longer stops the partition; ${loosenedWhy(mode)}`));
  }
  if (old.description !== next.description) out.push(change('description_changed', null, 'cosmetic', `reference row ${key} has a new description`));
  return out;
}

function byKey(rows: readonly ReferenceRow[] | undefined): Map<string, ReferenceRow> {
  return new Map((rows ?? []).map((row) => [row.key.map((cell) => `${cell.column}=${String(cell.value)}`).join(', '), row]));
}

function weight(row: ReferenceRow): Severity {
  return row.severity ?? 'error';
}

/** How far a found value may be from the expected one: 0 for an exact match. */
function width(cell: ExpectedCell): number {
  return Math.max(cell.absolute ?? 0, (cell.relative ?? 0) * Math.abs(Number(cell.value)));
}

function show(cell: ExpectedCell): string {
  const tolerance = [cell.absolute === undefined ? undefined : `±${cell.absolute}`, cell.relative === undefined ? undefined : `±${cell.relative * 100}%`].filter((t) => t !== undefined);
  return `${JSON.stringify(cell.value)}${tolerance.length > 0 ? ` (within ${tolerance.join(' or ')})` : ''}`;
}
