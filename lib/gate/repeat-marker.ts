import { isoSeconds } from '../contract/temporal.js';
import { decisionRecord } from './decide.js';
import { attemptId, type Decision } from './decision.js';
import { gateReport } from './gate-report.js';
import type { Drop } from './read-drop.js';

/**
 * A marker put again after its drop was carried out (a producer job retrying its last step, a
 * re-run of `drop`): no data file is left and an earlier drop of the partition had a marker of
 * the same bytes. Its outcome is that earlier drop's: nothing moves and nobody is paged again.
 * An empty drop with a new marker is still judged, and fails, as any empty drop does.
 */
export function repeatOf(drop: Drop, earlier: readonly Decision[], context: { store: { location: string }; now: number }): Decision | undefined {
  if (drop.files.length > 0) return undefined;
  const original = earlier.find((d) => (d.outcome === 'publish' || d.outcome === 'quarantine') && d.report.source.marker.etag === drop.marker.etag);
  if (!original) return undefined;
  const attempt = attemptId(context.now, drop.tag);
  const verdict = original.outcome === 'publish' ? 'published' : 'quarantined';
  const summary = `a repeat of the marker of attempt ${original.attempt}, whose drop was ${verdict}: nothing left to do`;
  const checked = { status: 'pass' as const, contract: { name: drop.address.dataset, version: original.contract?.version ?? null }, rows: 0, files: [], violations: [], checked_at: isoSeconds(context.now) };
  const report = { ...gateReport(checked, drop, { location: context.store.location, attempt, warnings: [] }), summary };
  return { ...decisionRecord(context.now, attempt, drop, undefined, report), contract: original.contract, outcome: 'duplicate', repeats: original.attempt };
}
