import { runSeed } from './run-seed.js';
import { closeDuckdb } from './duckdb-session.js';
const tally: Record<string, number> = {};
const bump = (k: string) => (tally[k] = (tally[k] ?? 0) + 1);
const from = Number(process.argv[2] ?? 30000), n = Number(process.argv[3] ?? 60);
for (let s = from; s < from + n; s++) {
  const r = await runSeed(s, '/tmp/diffstat');
  if (r.differences.length || r.harnessError) { console.log(s, r.harnessError, r.differences.slice(0, 5)); bump('DISAGREE'); }
  const e = r.expected; if (!e) continue;
  bump(`status ${e.status}`);
  if (e.tolerance) bump(`tolerance ${e.tolerance.withheld ? 'withheld' : 'quarantined'}`);
  if (r.yaml.includes('on_violation')) bump('has on_violation');
  if (Object.values(e.severities).includes('warning')) bump('has warning');
  for (const k of Object.keys(e.counts)) if (/^(references|volume_vs_history|freshness)/.test(k)) bump(`${k.split(':')[0]} ${e.severities[k]}`);
  if (e.notes.length) bump('note skipped');
  if (r.facts.references) bump('has references');
  if (r.facts.history) bump('has history');
  if (r.engine.odcs) bump('odcs');
}
await closeDuckdb();
console.log(tally);
