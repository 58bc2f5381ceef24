/**
 * The correlation id of a fan-out step: the drop's tag, which every step of one run carries
 * (in `run`, or in the request key `_gate/runs/<name>/v<major>/<partition>/<tag>/requested.json`
 * the plan step starts from), and which the validate function's lines and the notice's `drop`
 * attribute carry too; so one id follows a big drop from its marker to its verdict.
 */
export function runCorrelationId(event: unknown): string | undefined {
  if (typeof event !== 'object' || event === null) return undefined;
  const { run, requestKey } = event as { run?: { tag?: unknown }; requestKey?: unknown };
  if (typeof run?.tag === 'string') return run.tag;
  if (typeof requestKey === 'string') return /\/([0-9a-f]+)\/requested\.json$/.exec(requestKey)?.[1];
  return undefined;
}
