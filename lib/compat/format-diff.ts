import type { Bump, Change, ContractDiff, DeclaredBump } from './contract-diff.js';

/**
 * The diff for a CI log: one line per change, then the verdict, e.g.
 * `needs a major bump, declares minor: NOT OK`. `title` names what was compared.
 */
export function formatDiffText(diff: ContractDiff, title: string): string {
  return [title, ...changeLines(diff.changes, '  '), formatVerdict(diff)].join('\n') + '\n';
}

/** One line per change, classes aligned so a log reader scans the first column for "breaking". */
export function changeLines(changes: readonly Change[], indent: string): string[] {
  if (changes.length === 0) return [`${indent}no changes`];
  const width = Math.max(...changes.map((c) => c.class.length));
  return changes.map((c) => `${indent}${c.class.padEnd(width)}  ${c.change}${c.column === null ? '' : ` ${c.column}`}: ${c.message}`);
}

export function formatVerdict(diff: ContractDiff): string {
  const capped = diff.required_bump !== 'major' && diff.changes.some((c) => c.class === 'breaking');
  const note = capped ? ' (compat.mode none: breaking changes are reported, not enforced)' : '';
  return `needs ${describeNeed(diff.required_bump)}${note}, declares ${describeDeclared(diff.declared_bump)}: ${diff.ok ? 'OK' : 'NOT OK'}`;
}

function describeNeed(bump: Bump): string {
  return bump === 'none' ? 'no bump' : `a ${bump} bump`;
}

function describeDeclared(bump: DeclaredBump): string {
  if (bump === 'version_decreased') return 'a lower version';
  return bump === 'none' ? 'the same version' : bump;
}
