import type { SemVer } from '../contract/model.js';
import type { Bump, Change, DeclaredBump } from './contract-diff.js';

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** What the version numbers say changed; a lower version is no bump at all but a mistake. */
export function declaredBump(old: SemVer, next: SemVer): DeclaredBump {
  const parts = [['major', old.major, next.major], ['minor', old.minor, next.minor], ['patch', old.patch, next.patch]] as const;
  for (const [bump, from, to] of parts) {
    if (to > from) return bump;
    if (to < from) return 'version_decreased';
  }
  return 'none';
}

/** `capAtMinor`: compat.mode none reports breaking changes without demanding a major version. */
export function requiredBump(changes: readonly Change[], capAtMinor: boolean): Bump {
  if (changes.some((c) => c.class === 'breaking')) return capAtMinor ? 'minor' : 'major';
  if (changes.some((c) => c.class === 'non-breaking' || c.class === 'flagged')) return 'minor';
  return changes.some((c) => c.class === 'cosmetic') ? 'patch' : 'none';
}

export function isEnough(declared: DeclaredBump, required: Bump): boolean {
  return declared !== 'version_decreased' && RANK[declared] >= RANK[required];
}
