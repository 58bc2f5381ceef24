import type { FileVerdict } from './check-contract-files.js';
import { changeLines, formatVerdict } from './format-diff.js';

/** Per-file verdicts for a CI log, then one summary line. */
export function formatCheckText(verdicts: readonly FileVerdict[], title: string): string {
  const lines = [title, ...verdicts.flatMap(verdictLines), summary(verdicts)];
  return `${lines.join('\n')}\n`;
}

function verdictLines(verdict: FileVerdict): string[] {
  const head = `${verdict.ok ? 'PASS' : 'FAIL'} ${verdict.file} (${verdict.state}): ${verdict.reason}`;
  const problems = verdict.problems.map((p) => `  ${p}`);
  if (!verdict.diff) return [head, ...problems];
  const { against, result } = verdict.diff;
  // An added vN is judged as a new file; its diff against v(N-1) only tells reviewers what moved.
  if (verdict.state === 'added') return [head, ...problems, `  against ${against}, for information (${formatVerdict(result)}):`, ...changeLines(result.changes, '    ')];
  return [head, ...problems, ...changeLines(result.changes, '  ')];
}

function summary(verdicts: readonly FileVerdict[]): string {
  const failed = verdicts.filter((v) => !v.ok).length;
  const files = `${verdicts.length} changed contract file${verdicts.length === 1 ? '' : 's'}`;
  if (verdicts.length === 0) return 'no contract file changed: OK';
  return failed === 0 ? `${files}, all pass: OK` : `${failed} of ${files} fail: NOT OK`;
}
