import type { FileVerdict } from '../compat/check-contract-files.js';
import { changeLines, formatVerdict } from '../compat/format-diff.js';
import { formatJunit, type JunitCase } from './junit-xml.js';

/**
 * `check-compat --format junit`: one testsuite for the run, one testcase per contract file
 * judged. A fail carries the reason as its message and the load problems and changes as text;
 * a pass keeps its reason and changes as output, since a pass may still be worth reading.
 */
export function compatJunit(verdicts: readonly FileVerdict[], dir: string, title: string): string {
  return formatJunit('contract-gate check-compat', [{ name: title, properties: [['dir', dir]], cases: verdicts.map((v) => testcase(v, dir)) }]);
}

function testcase(verdict: FileVerdict, dir: string): JunitCase {
  const base = { classname: dir, name: `${verdict.file} (${verdict.state})` };
  const text = [verdict.reason, ...verdict.problems, ...diffLines(verdict)].join('\n');
  return verdict.ok ? { ...base, output: text } : { ...base, failure: { message: verdict.reason, type: verdict.state, text } };
}

function diffLines(verdict: FileVerdict): string[] {
  if (!verdict.diff) return [];
  const { against, result } = verdict.diff;
  return [`against ${against} (${formatVerdict(result)}):`, ...changeLines(result.changes, '  ')];
}
