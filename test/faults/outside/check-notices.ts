import { readFileSync } from 'node:fs';
import type { StoredDecision } from './final-state.js';
import { describeDecision, rejudged, validDecisions, type Report, type TrialView } from './invariants.js';

/** One line of <dir>/notifications.jsonl. */
export interface NoticeLine {
  readonly subject?: string;
  readonly body?: string;
  readonly attributes?: Record<string, string | undefined>;
}

export function readNotices(file: string): NoticeLine[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split('\n').filter(Boolean).flatMap((line) => {
    try {
      return [JSON.parse(line) as NoticeLine];
    } catch {
      return [{ subject: `unparseable line: ${line.slice(0, 80)}` }];
    }
  });
}

const GATE_OUTCOMES: Record<string, string> = { published: 'publish', quarantined: 'quarantine', superseded: 'superseded' };

export interface NoticeStats {
  notices: number;
  /** Matched by the `drop` attribute; the rest by attempt (attribute, else the body's `Attempt:` line). */
  byDrop: number;
}

/** notice-once, notice-sent and notice-outcome for one trial's partition. */
export function checkNotices(view: TrialView, all: readonly NoticeLine[], report: Report, stats: NoticeStats): void {
  const valid = validDecisions(view.state);
  const mine = all.filter((n) => n.attributes?.contract === 'orders' && n.attributes?.version === 'v1' && n.attributes?.partition === view.plan.partition);
  const perDecision = new Map<StoredDecision, NoticeLine[]>(valid.map((d) => [d, []]));
  // A re-put of a published drop's marker over the same bytes, judged again (see rejudged).
  const republished = new Set(rejudged(valid).filter((p) => p.earlier.record!.outcome === 'publish').map((p) => p.later));
  for (const notice of mine) {
    const outcome = notice.attributes?.outcome ?? '';
    if (!(outcome in GATE_OUTCOMES) && outcome !== 'duplicate') continue; // the SLA probe's notices are not the gate's
    stats.notices += 1;
    const drop = notice.attributes?.drop;
    if (drop) stats.byDrop += 1;
    const attempt = notice.attributes?.attempt ?? /Attempt:\s+(\S+)/.exec(notice.body ?? '')?.[1];
    const decision = drop ? valid.find((d) => d.stem === drop) : valid.find((d) => d.record!.attempt === attempt);
    if (!decision) {
      report('notice-outcome', 'every notice names a drop that has a decision', `"${outcome}" notice for drop ${drop ?? '(no drop attribute)'}, attempt ${attempt ?? '?'}: no such decision`);
      continue;
    }
    perDecision.get(decision)!.push(notice);
    const real = decision.record!.outcome!;
    const attribute = notice.attributes?.attempt;
    if (attribute !== undefined && attribute !== decision.record!.attempt) report('notice-outcome', `the notice of ${decision.stem} names its attempt ${decision.record!.attempt}`, `attempt attribute ${attribute}`);
    if (GATE_OUTCOMES[outcome] !== real) report('notice-outcome', `the notice of ${decision.stem} says what happened (${real})`, `"${outcome}" for ${describeDecision(decision)}`);
    else if (outcome === 'quarantined' && republished.has(decision)) {
      report('notice-outcome', 'no quarantine page for a published drop (its marker put again over the same bytes)', `"quarantined" for ${describeDecision(decision)}`);
    }
  }
  for (const [decision, notices] of perDecision) {
    const outcome = decision.record!.outcome!;
    if (notices.length > 1) report('notice-once', `at most one notice for ${decision.stem}`, `${notices.length}: ${notices.map((n) => n.attributes?.outcome).join(', ')}`);
    if (notices.length === 0 && outcome !== 'duplicate') report('notice-sent', `one notice for ${describeDecision(decision)}`, view.killed ? 'none (the trial lived through a SIGKILL)' : 'none');
  }
}
