/**
 * The sentences the migration skeleton asks a human to replace, after its TODO(migration) marker.
 * Shared by the skeleton that writes them and the check that refuses a document still holding one:
 * deleting only the marker leaves the question, not an answer.
 */
export interface SkeletonPrompts {
  readonly why: string;
  readonly models: string;
  readonly opens: string;
  readonly action: string;
  /** When the old major has no sunset yet. */
  readonly sunset: string;
}

export function skeletonPrompts(from: number, to: number): SkeletonPrompts {
  return {
    why: `why v${to} changes this, and what it gives that v${from} could not.`,
    models: 'the downstream models (dbt models, dashboards, exports) that read what changed.',
    opens: 'YYYY-MM-DD',
    action: `what each consumer changes to read v${to}, and by when (before the sunset).`,
    sunset: `set status: deprecated and sunset: YYYY-MM-DD in the v${from} contract, then give the same date here.`,
  };
}
