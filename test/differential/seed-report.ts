import type { SeedResult } from './run-seed.js';

/** A disagreement as printed: the seed that reproduces it, the writer, each difference, the contract and the lake's facts. */
export function describeSeed(result: SeedResult, withContract: boolean): string {
  const threads = result.workers ? [`workers ${result.workers.join(' and ')}`] : result.engine.workers > 1 ? [`${result.engine.workers} workers`] : [];
  const engine = [...threads, ...(result.engine.odcs ? ['contract via its ODCS export'] : [])];
  const head = `seed ${result.seed} (${[result.format, `writer ${result.writer}`, ...engine].join(', ')})`;
  const body = result.harnessError !== undefined ? [`  ${result.harnessError}`] : result.differences.map((d) => `  ${d}`);
  const repro = `  reproduce: npx tsx test/differential/run-differential.ts --seed ${result.seed}${result.workers ? ` --workers ${result.workers.join(',')}` : ''} --keep (leaves the files, the contract and facts.json)`;
  const contract = withContract ? ['  contract:', ...result.yaml.trimEnd().split('\n').map((line) => `    ${line}`), ...factsLines(result)] : [];
  return [head, ...body, repro, ...contract].join('\n');
}

/** The history in full; referenced keys, which may be thousands, up to 20 per column. */
function factsLines(result: SeedResult): string[] {
  const { history, references } = result.facts;
  const lines: string[] = [];
  if (history) lines.push(`  history (newest first): ${history.map((p) => `${p.partition} ${p.rows}`).join(', ') || 'none'}`);
  for (const [column, keys] of references ?? []) {
    const text = 'keys' in keys ? `${keys.keys.length} keys: ${keys.keys.slice(0, 20).map((k) => JSON.stringify(k)).join(', ')}${keys.keys.length > 20 ? ', …' : ''}` : `unavailable: ${keys.unavailable}`;
    lines.push(`  references of ${column}: ${text}`);
  }
  return lines;
}

export function isDisagreement(result: SeedResult): boolean {
  return result.differences.length > 0;
}
