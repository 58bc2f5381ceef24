/** A candidate that lost, with why: `pickup_at: unique in 3 of 3 samples, but a timestamp: unique by chance`. */
export interface RunnerUp {
  readonly name: string;
  readonly why: string;
}

/**
 * A choice infer made for the user (the grain, the freshness column) with its reason and the
 * candidates it passed over, so a reviewer can overrule it knowing what else there was. The
 * same lines go into the proposed YAML as comments and onto the CLI's stderr.
 */
export interface Choice {
  /** The contract key it fills: `grain`, `freshness_column`. */
  readonly label: string;
  /** What was chosen, as the contract lists it; undefined: nothing. */
  readonly chosen?: string;
  readonly why: string;
  /** Said when the choice is weak: a reviewer must look at it before trusting it. */
  readonly warning?: string;
  readonly runnersUp: readonly RunnerUp[];
  /** How the candidates were searched, when a bound left some out. */
  readonly search?: string;
}

/** Runners-up listed at most; the rest are counted. */
export const MAX_RUNNERS_UP = 8;

/** The choice as lines: `grain: a, b: why`, a warning, the runners-up indented below. */
export function choiceLines(choice: Choice): string[] {
  const lines = [`${choice.label}: ${choice.chosen ?? 'none'}: ${choice.why}`];
  if (choice.warning) lines.push(`WARNING: ${choice.warning}`);
  const shown = choice.runnersUp.slice(0, MAX_RUNNERS_UP);
  if (shown.length > 0) lines.push('runners-up:', ...shown.map((r) => `  ${r.name}: ${r.why}`));
  const more = choice.runnersUp.length - shown.length;
  if (more > 0) lines.push(`  … and ${more} more`);
  if (choice.search) lines.push(`search: ${choice.search}`);
  return lines;
}
