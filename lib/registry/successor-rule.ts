import { diffContracts } from '../compat/diff-contracts.js';
import type { ContractDiff } from '../compat/contract-diff.js';
import { formatVerdict } from '../compat/format-diff.js';
import type { Contract, SemVer } from '../contract/model.js';

/**
 * The registry's one rule for a new version of a major, shared by `publish` (which refuses) and
 * the gate's reader (which keeps the last good version in force): the classification
 * `check-compat` uses, and a declared bump at least as big as the changes need.
 */
export function judgeSuccessor(old: Contract, next: Contract): ContractDiff {
  return diffContracts(old, next);
}

/** `<name>.v<major>.yaml` (or `.yml`), in any folder: the file a new major of a known dataset comes in. */
export function isOwnMajorFile(name: string, major: number, path: string): boolean {
  return new RegExp(`(^|[\\\\/])${escapeRegExp(name)}\\.v${major}\\.ya?ml$`).test(path);
}

export function ownMajorFile(name: string, major: number): string {
  return `${name}.v${major}.yaml`;
}

/** Why `next` is not a compatible successor of `registered`, and the version it should have declared. */
export function refusalReason(next: Contract, diff: ContractDiff, registered: string): string {
  const head = `${next.name} ${next.version.text} against the registered ${registered}`;
  if (diff.declared_bump === 'version_decreased') return `${head}: the version is lower than the one in force`;
  if (diff.required_bump === 'major') return `${head}: needs a major bump: a new major version is a new file ${ownMajorFile(next.name, next.version.major + 1)}, registered beside v${next.version.major}`;
  const { major, minor, patch } = parseVersion(registered);
  const bumped = diff.required_bump === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
  return `${head}: ${formatVerdict(diff)}; set version to ${bumped}`;
}

export function parseVersion(text: string): SemVer {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return { major, minor, patch, text };
}

/** Semantic-version order of `MAJOR.MINOR.PATCH` texts. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parseVersion(a), parseVersion(b)];
  return x.major - y.major || x.minor - y.minor || x.patch - y.patch;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
