import type { Contract } from '../contract/model.js';
import { GateError } from '../errors.js';
import { declaredBump, isEnough, requiredBump } from './bump.js';
import { columnChanges } from './column-changes.js';
import { withConsumers } from './consumers-hit.js';
import { change, type CompatMode, type ContractDiff, type RawChange } from './contract-diff.js';
import { datasetChanges } from './dataset-changes.js';

/**
 * Classifies every change from `old` to `next` and judges whether the version bump `next`
 * declares is enough. Pure: both contracts are already loaded and valid.
 */
export function diffContracts(old: Contract, next: Contract): ContractDiff {
  if (old.name !== next.name) {
    throw new GateError('bad_arguments', `cannot diff two datasets: "${old.name}" and "${next.name}"; diff two versions of one dataset`);
  }
  const governing = governingMode(old, next);
  const declared = declaredBump(old.version, next.version);
  const raw: RawChange[] = [
    ...(declared === 'version_decreased' ? [change('version_decreased', null, 'error', `the version went down from ${old.version.text} to ${next.version.text}: a new version must be higher than the one it replaces`)] : []),
    ...columnChanges(old, next, governing.mode),
    ...datasetChanges(old, next, governing.mode),
  ];
  const changes = raw.map((c) => withConsumers(c.class === 'breaking' ? { ...c, message: c.message + governing.note } : c, old, next));
  const required = requiredBump(changes, governing.mode === 'none');
  const ok = !changes.some((c) => c.class === 'error') && isEnough(declared, required);
  return { changes, required_bump: required, declared_bump: declared, ok };
}

/**
 * The new version's mode governs, except that relaxing it to `none` cannot waive the breaking
 * changes made in the same edit: those are judged by the mode they were made under.
 */
function governingMode(old: Contract, next: Contract): { mode: CompatMode; note: string } {
  const [from, to] = [old.compat.mode, next.compat.mode];
  if (to === 'none' && from !== 'none') return { mode: from, note: ` (compat.mode ${from} still governs: relaxing it to none in the same change waives nothing)` };
  if (to === 'none') return { mode: 'none', note: ' (compat.mode none: reported, but it asks only a minor bump)' };
  return { mode: to, note: '' };
}
