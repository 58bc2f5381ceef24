import { BOMBS, type BombRecipe } from './parquet-bombs.js';
import { validateInChild } from './bomb-child.js';

/** A reader gets about 512 MB (a Lambda's memory, see parquet-limits.ts); the page budget keeps decoded pages to half of it. */
export const PEAK_RSS_MB = 512;

export interface BombOutcome {
  readonly name: string;
  readonly maxRssMb: number;
  /** What is wrong, or undefined when the file was refused (or read) as expected within the bound. */
  readonly failure: string | undefined;
}

/** Validates one bomb in a process of its own and judges the report and the peak RSS. */
export async function runBomb(bomb: BombRecipe): Promise<BombOutcome> {
  const verdict = await validateInChild(await bomb.build(), bomb.columns);
  const said = verdict.unreadable ?? `no unreadable finding (rules: ${JSON.stringify(verdict.rules)})`;
  const wrong = bomb.expect === 'read'
    ? (verdict.unreadable === undefined ? undefined : `was refused: ${said}`)
    : (bomb.expect.test(verdict.unreadable ?? '') ? undefined : `expected ${bomb.expect}, the report says: ${said}`);
  const bound = bomb.peakRssMb ?? PEAK_RSS_MB;
  const failure = verdict.maxRssMb >= bound ? `peaked at ${verdict.maxRssMb} MB RSS, over ${bound} MB` : wrong;
  return { name: bomb.name, maxRssMb: verdict.maxRssMb, failure };
}

/** The whole corpus, two files at a time. */
export async function runBombs(bombs: readonly BombRecipe[] = BOMBS): Promise<BombOutcome[]> {
  const outcomes: BombOutcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < bombs.length) outcomes.push(await runBomb(bombs[next++]!));
  };
  await Promise.all([lane(), lane()]);
  return bombs.map((bomb) => outcomes.find((o) => o.name === bomb.name)!);
}
