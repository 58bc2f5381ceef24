import type { FileVerdict } from '../compat/check-contract-files.js';
import type { Change, ContractDiff } from '../compat/contract-diff.js';
import type { ContractProblem } from '../contract/problems.js';
import { problemAnnotation, type Annotation } from './github-annotations.js';
import { KeyLines, type Position } from './key-lines.js';

/** One judged file as the annotations need it: where it is in the repository and what it says now. */
export interface AnnotatedVerdict {
  readonly verdict: FileVerdict;
  /** The path GitHub knows the file by: relative to the repository root. */
  readonly path: string;
  /** The file as it is now; absent for a deleted file. */
  readonly text?: string;
  readonly problems: readonly ContractProblem[];
}

/** The key a dataset-wide change is about, native spelling first, then ODCS. */
const CHANGE_KEYS: Partial<Record<Change['change'], readonly string[]>> = {
  column_removed: ['columns', 'properties'],
  grain_changed: ['grain'],
  partition_changed: ['partition', 'location'],
  sla_changed: ['sla', 'slaProperties'],
  status_changed: ['status'],
  description_changed: ['description'],
  version_decreased: ['version'],
};

const START: Position = { line: 1, col: 1 };

/**
 * `check-compat --format github`: the file's load problems where they are, one error for a
 * failing verdict, and one annotation per change worth a reviewer's look, on the changed key.
 */
export function compatAnnotations(judged: AnnotatedVerdict): Annotation[] {
  const { verdict, path } = judged;
  const lines = new KeyLines(judged.text ?? '');
  const annotations: Annotation[] = judged.problems.map((p) => ({ ...problemAnnotation(p), file: path }));
  if (!verdict.ok) {
    const at = verdictPosition(verdict, lines);
    annotations.push({ level: 'error', file: path, line: at.line, col: at.col, title: `check-compat: ${verdict.file} (${verdict.state})`, message: verdict.reason });
  }
  // An added vN is judged as a new file; its diff against v(N-1) is for information only.
  if (verdict.diff && verdict.state === 'modified') annotations.push(...changeAnnotations(verdict, verdict.diff.result, path, lines));
  return annotations;
}

/** A bump too small is fixed at `version`; a breaking change at the first breaking change. */
function verdictPosition(verdict: FileVerdict, lines: KeyLines): Position {
  const diff = verdict.diff?.result;
  if (!diff || verdict.state !== 'modified') return START;
  const breaking = diff.changes.find((c) => c.class === 'breaking' || c.class === 'error');
  if (diff.required_bump === 'major' && breaking) return changePosition(breaking, lines);
  return lines.key(['version']) ?? START;
}

function changeAnnotations(verdict: FileVerdict, diff: ContractDiff, path: string, lines: KeyLines): Annotation[] {
  return diff.changes
    .filter((c) => c.class === 'breaking' || c.class === 'error' || c.class === 'flagged')
    .map((c) => {
      const at = changePosition(c, lines);
      const level = !verdict.ok && c.class !== 'flagged' ? 'error' : 'warning';
      const hits = c.consumers?.length ? ` (hits ${c.consumers.join(', ')})` : '';
      return { level, file: path, line: at.line, col: at.col, title: c.column === null ? c.change : `${c.change} ${c.column}`, message: `${c.class}: ${c.message}${hits}` };
    });
}

/** The column's entry, else the key the change is about; a removed column is no longer there. */
function changePosition(change: Change, lines: KeyLines): Position {
  const column = change.column === null || change.change === 'column_removed' ? undefined : lines.column(change.column);
  const keys = CHANGE_KEYS[change.change];
  return column ?? (keys ? lines.key(keys) : undefined) ?? START;
}
