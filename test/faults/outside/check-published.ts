import { prefixes } from './final-state.js';
import { describeDecision, labelOf, validDecisions, type Report, type TrialView } from './invariants.js';
import type { Revalidation } from './revalidate.js';

/** success-exact, published-judged, published-written, no-bad-published and revalidates. */
export function checkPublished(view: TrialView, revalidation: Revalidation | undefined, report: Report): void {
  const { state, pool, plan } = view;
  const prefix = prefixes(plan.partition).published;
  for (const d of validDecisions(state).filter((v) => v.record!.outcome === 'publish')) {
    const bad = (d.record!.files ?? []).filter((f) => pool.byMd5.get(f.etag ?? '')?.kind !== 'good' && pool.byMd5.has(f.etag ?? ''));
    if (bad.length > 0) report('no-bad-published', 'no publish decision over a version with a planted violation', `${d.stem} judged ${bad.map((f) => labelOf(pool, f.etag)).join(', ')} good`);
  }
  if (!state.success && state.published.size === 0) return;
  for (const [name, object] of state.published) {
    const written = view.ledger.ops.some((op) => op.kind === 'put' && op.name === name && op.version.md5 === object.md5);
    if (!written) report('published-written', `published/${name} is a version the producer wrote as ${name}`, labelOf(pool, object.md5));
    const version = pool.byMd5.get(object.md5);
    if (version && version.kind !== 'good') report('no-bad-published', `no version with a planted violation published`, `published/${name} is ${version.label}`);
  }
  if (revalidation && revalidation.exit !== 0) report('revalidates', 'validate passes on the published partition', `exit ${revalidation.exit}: ${revalidation.summary}`);
  if (!state.success) return;
  const success = state.success.json;
  if (!success || !Array.isArray(success.files)) {
    report('success-exact', '_SUCCESS is JSON with attempt and files', new TextDecoder().decode(state.success.object.bytes).slice(0, 120));
    return;
  }
  const listed = new Map(success.files.map((f) => [f.key ?? '', f]));
  for (const [name, object] of state.published) {
    const entry = listed.get(`${prefix}${name}`);
    if (!entry) report('success-exact', `every published object listed in _SUCCESS`, `published/${name} (${labelOf(pool, object.md5)}) is not listed`);
    else if (entry.size !== object.size || entry.etag !== object.md5) report('success-exact', `_SUCCESS lists ${name} as ${entry.size} bytes, ETag ${entry.etag?.slice(0, 8)}`, `the object is ${object.size} bytes, MD5 ${object.md5.slice(0, 8)} (${labelOf(pool, object.md5)})`);
  }
  for (const key of listed.keys()) if (!state.published.has(key.slice(prefix.length))) report('success-exact', `${key}, listed in _SUCCESS, exists`, 'missing');
  const decision = validDecisions(state).find((d) => d.record!.outcome === 'publish' && d.record!.attempt === success.attempt);
  if (!decision) {
    const same = state.decisions.filter((d) => d.record?.attempt === success.attempt).map(describeDecision);
    report('published-judged', `a publish decision of attempt ${success.attempt}, the one in _SUCCESS`, same.join('; ') || 'none');
    return;
  }
  const judged = new Map((decision.record!.files ?? []).map((f) => [f.relative ?? '', f]));
  for (const [name, object] of state.published) {
    const f = judged.get(name);
    if (!f) report('published-judged', `only files ${decision.stem} judged are published`, `published/${name} (${labelOf(pool, object.md5)}) was not in the drop`);
    else if (f.etag !== object.md5 || f.size !== object.size) report('published-judged', `published/${name} = the judged ${labelOf(pool, f.etag)} (${f.size} bytes)`, `${labelOf(pool, object.md5)} (${object.size} bytes)`);
  }
  for (const name of judged.keys()) if (!state.published.has(name)) report('published-judged', `${name}, judged by ${decision.stem}, published`, 'not in published/');
}
