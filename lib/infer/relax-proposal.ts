import type { RuleId } from '../report/report.js';
import type { ProposedColumn, ProposedContract } from './proposal.js';

/** A violation as the engine reported it, reduced to what names a rule. */
export interface Finding {
  readonly rule: RuleId;
  readonly column?: string;
  readonly message: string;
}

/** Rules a failed sample can take back out; anything else means a sample cannot be read. */
const RELAXABLE: readonly RuleId[] = ['missing_column', 'type', 'required', 'enum', 'min', 'max', 'not_in_future', 'unique', 'grain', 'min_rows', 'max_rows', 'freshness'];

export function canRelax(finding: Finding): boolean {
  return RELAXABLE.includes(finding.rule);
}

/**
 * Takes out each rule a sample broke when the engine checked the proposal. The inference reads
 * values as the engine does, so this is a safety net (a CSV key unique as text, `01` and `1`,
 * but not as numbers): the contract must pass the samples it came from, and says what was
 * taken back.
 */
export function relaxProposal(proposal: ProposedContract, findings: readonly Finding[]): ProposedContract {
  let next = proposal;
  for (const finding of findings) next = relaxOne(next, finding);
  return next;
}

function relaxOne(p: ProposedContract, f: Finding): ProposedContract {
  const note = `relaxed: the engine found "${f.message.split('\n')[0]}"`;
  switch (f.rule) {
    case 'grain':
    case 'unique': return { ...p, grain: [], grainNotes: [...p.grainNotes, `no grain, ${note}`] };
    case 'min_rows':
    case 'max_rows': return p.volume ? { ...p, volume: { ...p.volume, [f.rule === 'min_rows' ? 'minRows' : 'maxRows']: undefined, note: `${p.volume.note}; ${note}` } } : p;
    case 'freshness': return dropFreshness(p, note);
    case 'missing_column':
    case 'type': return leaveOut(p, f.column, note);
    default: return { ...p, columns: p.columns.map((c) => (c.name === f.column ? relaxColumn(c, f.rule, note) : c)) };
  }
}

function relaxColumn(c: ProposedColumn, rule: RuleId, note: string): ProposedColumn {
  const notes = [...c.notes, `${rule}: ${note}`];
  if (rule === 'required') return { ...c, required: false, notes };
  if (rule === 'enum') return { ...c, enum: undefined, notes };
  if (rule === 'not_in_future') return { ...c, notInFuture: false, notes };
  return { ...c, min: undefined, max: undefined, notes };
}

function leaveOut(p: ProposedContract, column: string | undefined, note: string): ProposedContract {
  if (column === undefined) return p;
  const grain = p.grain.includes(column) ? [] : p.grain;
  const next = { ...p, columns: p.columns.filter((c) => c.name !== column), leftOut: [...p.leftOut, { name: column, reason: note }], grain };
  return p.freshness?.column === column ? dropFreshness(next, note) : next;
}

/** No freshness rule after all; the choice says which column the samples took it back from. */
function dropFreshness(p: ProposedContract, note: string): ProposedContract {
  const { freshness: dropped, ...rest } = p;
  const why = `${dropped?.column ?? 'a column'} was chosen, but ${note}: no freshness rule`;
  return { ...rest, freshnessChoice: { ...p.freshnessChoice, chosen: undefined, why } };
}
