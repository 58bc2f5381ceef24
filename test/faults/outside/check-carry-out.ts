import type { StoredDecision } from './final-state.js';
import { describeDecision, labelOf, validDecisions, type Report, type TrialView } from './invariants.js';
import { lastOps } from './producer.js';

/** carried-out and no-orphan-quarantine. */
export function checkCarryOut(view: TrialView, report: Report): void {
  const { state, pool } = view;
  const valid = validDecisions(state);
  for (const d of valid) {
    const r = d.record!;
    const files = r.files ?? [];
    const attempt = r.attempt ?? '';
    if (r.outcome === 'publish' || r.outcome === 'quarantine') {
      for (const f of files) {
        const staged = state.staging.get(f.relative ?? '');
        if (staged && staged.md5 === f.etag) report('carried-out', `${f.relative} (${labelOf(pool, f.etag)}) removed from staging after ${r.outcome} ${d.stem}`, 'still staged');
      }
    }
    if (r.outcome === 'quarantine') {
      const folder = state.quarantine.get(attempt);
      if (!folder) {
        report('carried-out', `quarantine/.../${attempt}/ for ${describeDecision(d)}`, 'no such folder');
        continue;
      }
      for (const f of files) {
        const copy = folder.get(f.relative ?? '');
        if (copy?.md5 !== f.etag) report('carried-out', `quarantine/.../${attempt}/${f.relative} = the judged ${labelOf(pool, f.etag)}`, copy ? `${labelOf(pool, copy.md5)}` : 'missing');
      }
      const marker = folder.get('_READY');
      const judgedMarker = r.report?.source?.marker?.etag;
      if (marker?.md5 !== judgedMarker) report('quarantine-marker', `quarantine/.../${attempt}/_READY = the drop's marker ${judgedMarker?.slice(0, 8)}`, marker ? `another marker's bytes ${marker.md5.slice(0, 8)}` : 'missing');
      if (!folder.has('_REPORT.json')) report('carried-out', `quarantine/.../${attempt}/_REPORT.json`, 'missing');
      if (!folder.has('_REPORT.html')) report('carried-out', `quarantine/.../${attempt}/_REPORT.html`, 'missing');
    }
    if (r.outcome === 'superseded' || r.outcome === 'duplicate') {
      if (state.quarantine.has(attempt)) report('carried-out', `nothing quarantined for ${r.outcome} ${d.stem}`, `quarantine/.../${attempt}/ exists`);
      if (state.success?.json?.attempt === attempt) report('carried-out', `nothing published for ${r.outcome} ${d.stem}`, `_SUCCESS names attempt ${attempt}`);
    }
  }
  const publishes = valid.filter((d) => d.record!.outcome === 'publish');
  const newest = newestOf(publishes);
  if (newest) {
    const wanted = newest.record!.attempt;
    if (!state.success) report('carried-out', `published/_SUCCESS of the newest publish ${describeDecision(newest)}`, `no _SUCCESS (${state.published.size} published objects)`);
    else if (state.success.json?.attempt !== wanted) {
      const holder = publishes.find((d) => d.record!.attempt === state.success!.json?.attempt);
      report('carried-out', `published/ holds the newest publish ${describeDecision(newest)}`, `_SUCCESS of attempt ${state.success.json?.attempt} (${holder ? 'an older publish' : 'no publish decision'})`);
    }
  } else if (state.published.size > 0 && !state.success) {
    report('carried-out', 'no published files without a publish decision', `${[...state.published.keys()].join(', ')} without _SUCCESS`);
  }
  for (const [attempt, folder] of state.quarantine) {
    const owner = valid.find((d) => d.record!.outcome === 'quarantine' && d.record!.attempt === attempt);
    if (!folder.has('_REPORT.json') || !owner) {
      report('no-orphan-quarantine', `quarantine/.../${attempt}/ with _REPORT.json and a quarantine decision`, `${folder.has('_REPORT.json') ? 'has' : 'no'} _REPORT.json, ${owner ? 'a' : 'no'} quarantine decision; holds ${[...folder.keys()].join(', ')}`);
    }
  }
}

/** no-loss: the last version of every name the producer did not delete is somewhere, byte for byte. */
export function checkNoLoss(view: TrialView, report: Report): void {
  const { state, pool } = view;
  for (const [name, op] of lastOps(view.ledger)) {
    if (op.kind !== 'put') continue;
    const want = op.version.md5;
    const aside = [...state.quarantine.values(), ...state.replaced.values()];
    const places = [state.staging.get(name), state.published.get(name), ...aside.map((f) => f.get(name))];
    if (places.some((o) => o?.md5 === want)) continue;
    const quarantined = [...state.quarantine].flatMap(([a, f]) => (f.has(name) ? [`quarantine ${a}: ${labelOf(pool, f.get(name)!.md5)}`] : []));
    const seen = [`staging: ${state.staging.has(name) ? labelOf(pool, state.staging.get(name)!.md5) : 'none'}`, `published: ${state.published.has(name) ? labelOf(pool, state.published.get(name)!.md5) : 'none'}`, ...quarantined];
    report('no-loss', `${name}: the last version written, ${op.version.label}, kept somewhere`, seen.join('; '));
  }
}

/** The publish whose marker is newest (LastModified, then decision time, then attempt). */
export function newestOf(decisions: readonly StoredDecision[]): StoredDecision | undefined {
  const key = (d: StoredDecision) => `${d.record!.report?.source?.marker?.last_modified ?? ''}|${d.record!.decided_at ?? ''}|${d.record!.attempt ?? ''}`;
  return [...decisions].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)).at(-1);
}
