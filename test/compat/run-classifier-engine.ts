import { parseArgs } from 'node:util';
import { formatFinding, runTrial, type Finding } from './classifier-engine.js';

/**
 * `npm run test:compat -- --seeds 10000 [--from N]`: the classifier-against-engine property over
 * many seeds. Prints the tally, each kind of finding once with a count, and exits 1 on any finding.
 */
const { values } = parseArgs({ options: { seeds: { type: 'string', default: '10000' }, from: { type: 'string', default: '1' }, show: { type: 'string', default: '3' } } });
const [count, first, show] = [Number(values.seeds), Number(values.from), Number(values.show)];
const tally = { checked: 0, breaking: 0, 'no-data': 0, judged: 0 };
const byKind = new Map<string, Finding[]>();
const judgedChanges = new Map<string, number>();
for (let seed = first; seed < first + count; seed++) {
  const result = await runTrial(seed);
  tally[result.outcome]++;
  tally.judged += result.judged;
  if (result.judged > 0) for (const id of new Set(result.compatible)) judgedChanges.set(id, (judgedChanges.get(id) ?? 0) + 1);
  for (const finding of result.findings) {
    const key = `${finding.kind}: ${finding.violations[0]?.replace(/[0-9]+/g, 'N') ?? ''}`;
    byKind.set(key, [...(byKind.get(key) ?? []), finding]);
  }
}
const total = [...byKind.values()].reduce((n, list) => n + list.length, 0);
console.log(`${count} seeds from ${first}: ${tally.checked} compatible edits judged (${tally.judged} directions), ${tally.breaking} classified breaking, ${tally['no-data']} without drawable data; ${total} disagreements`);
console.log(`compatible changes judged: ${[...judgedChanges].sort((a, b) => b[1] - a[1]).map(([id, n]) => `${id} ${n}`).join(', ')}`);
for (const [key, list] of [...byKind].sort((a, b) => b[1].length - a[1].length)) {
  console.log(`\n== ${list.length} × ${key} (seeds ${list.slice(0, 10).map((f) => f.seed).join(', ')}${list.length > 10 ? ', …' : ''})`);
  for (const finding of list.slice(0, show)) console.log(formatFinding(finding));
}
process.exit(total > 0 ? 1 : 0);
