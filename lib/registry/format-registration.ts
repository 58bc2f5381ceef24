import { changeLines } from '../compat/format-diff.js';
import type { RegisterOutcome } from './register-contract.js';

/** One line per file, the changes a refusal rests on under it: read in a CI log. */
export function formatRegistration(outcomes: readonly RegisterOutcome[]): string {
  const lines = outcomes.flatMap((o) => {
    if (o.status === 'refused') {
      const changes = o.diff ? changeLines(o.diff.result.changes.filter((c) => c.class !== 'cosmetic'), '    ') : [];
      return [`REFUSED     ${o.file}: ${o.reason}`, ...o.problems.map((p) => `    ${p}`), ...changes];
    }
    const what = `${o.name} ${o.version}`;
    if (o.status === 'unchanged') return [`unchanged   ${what} from ${o.file}: ${o.reason}`];
    const migration = o.migration ? [`    its migration document: ${o.migration}`] : [];
    return [`registered  ${what} from ${o.file} as ${o.key} (${o.reason})`, ...migration, ...o.problems.map((p) => `    ${p}`)];
  });
  const refused = outcomes.filter((o) => o.status === 'refused').length;
  const tail = refused === 0 ? `${outcomes.length} contract file(s): registered or already registered` : `${refused} of ${outcomes.length} contract file(s) refused; the versions in force are unchanged for those`;
  return `${[...lines, tail].join('\n')}\n`;
}
