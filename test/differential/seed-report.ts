import type { SeedResult } from './run-seed.js';

/** A disagreement as printed: the seed that reproduces it, the writer, each difference, the contract. */
export function describeSeed(result: SeedResult, withContract: boolean): string {
  const engine = [...(result.engine.workers > 1 ? [`${result.engine.workers} workers`] : []), ...(result.engine.odcs ? ['contract via its ODCS export'] : [])];
  const head = `seed ${result.seed} (${[result.format, `writer ${result.writer}`, ...engine].join(', ')})`;
  const body = result.harnessError !== undefined ? [`  ${result.harnessError}`] : result.differences.map((d) => `  ${d}`);
  const repro = `  reproduce: npx tsx test/differential/run-differential.ts --seed ${result.seed} --keep`;
  const contract = withContract ? ['  contract:', ...result.yaml.trimEnd().split('\n').map((line) => `    ${line}`)] : [];
  return [head, ...body, repro, ...contract].join('\n');
}

export function isDisagreement(result: SeedResult): boolean {
  return result.differences.length > 0;
}
