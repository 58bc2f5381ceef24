import { describeDecision, OUTCOMES, rejudged, validDecisions, type Report, type TrialView } from './invariants.js';
import { prefixes } from './final-state.js';

/** decision-record, one-outcome, duplicate-outcome, no-stuck and recovery. */
export function checkDecisions(view: TrialView, report: Report): void {
  const { state, ledger } = view;
  const markerKey = `${prefixes(view.plan.partition).staging}_READY`;
  const putEtags = new Set(ledger.markers.map((m) => m.etag));
  for (const d of state.decisions) {
    const r = d.record;
    const problems: string[] = [];
    if (!r) problems.push('not JSON');
    else {
      if (!(OUTCOMES as readonly string[]).includes(r.outcome ?? '')) problems.push(`outcome "${r.outcome}"`);
      if (r.tag !== d.stem) problems.push(`tag "${r.tag}" in file ${d.stem}.json`);
      if (typeof r.attempt !== 'string' || r.attempt === '') problems.push('no attempt');
      if (!Array.isArray(r.files) || r.files.some((f) => !f.key || typeof f.relative !== 'string' || typeof f.size !== 'number' || !f.etag)) problems.push('files without key/relative/size/etag');
      const marker = r.report?.source?.marker;
      if (!marker?.etag || !marker.last_modified) problems.push('no report.source.marker {etag, last_modified}');
      else if (marker.key !== markerKey) problems.push(`marker key ${marker.key}`);
      else if (!putEtags.has(marker.etag)) problems.push(`marker ETag ${marker.etag} the producer never put`);
      for (const f of Array.isArray(r.files) ? r.files : []) {
        const written = ledger.ops.some((op) => op.kind === 'put' && op.name === f.relative && op.version.md5 === f.etag);
        if (f.etag && !written) problems.push(`judged ${f.relative} with ETag ${f.etag.slice(0, 8)}, a version the producer never wrote there`);
      }
    }
    if (problems.length > 0) report('decision-record', 'a well-formed decision of a marker the producer put', `${d.key}: ${problems.join('; ')}`);
  }
  const valid = validDecisions(state);
  const byDrop = groupBy(valid, (d) => `${d.record!.report?.source?.marker?.etag}|${d.record!.report?.source?.marker?.last_modified}`);
  for (const [drop, decisions] of byDrop) {
    if (decisions.length > 1) report('one-outcome', `one decision for the drop ${drop}`, `${decisions.length}: ${decisions.map(describeDecision).join('; ')}`);
  }
  const last = ledger.markers.at(-1);
  if (last) {
    const mine = valid.filter((d) => d.record!.report?.source?.marker?.etag === last.etag && (last.lastModified === undefined || d.record!.report?.source?.marker?.last_modified === last.lastModified));
    if (mine.length === 0) {
      const seen = valid.map(describeDecision).join('; ') || 'no decisions at all';
      report('one-outcome', `a decision for the last marker (${last.why}, ETag ${last.etag.slice(0, 8)} @ ${last.lastModified ?? 'LastModified unseen'})`, seen);
    }
  }
  for (const { later, earlier } of rejudged(valid)) {
    const reputs = ledger.markers.filter((m) => m.etag === later.record!.report?.source?.marker?.etag).length;
    report('duplicate-outcome', `the re-put marker's drop (body put ${reputs}×) over bytes already judged is duplicate`, `${describeDecision(later)} after ${describeDecision(earlier)}`);
  }
  if (!view.settled) {
    const left = state.markers.map((m) => {
      const decided = valid.find((d) => d.record!.report?.source?.marker?.etag === m.etag);
      return `_READY ${m.etag.slice(0, 8)} ${decided ? `decided ${decided.record!.outcome} but not carried out` : 'with no decision'}`;
    });
    report(view.killed ? 'recovery' : 'no-stuck', 'no _READY left once the gate settled', left.join('; ') || 'a _READY was left at the settle bound (gone when read)');
  }
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(item);
  }
  return groups;
}
