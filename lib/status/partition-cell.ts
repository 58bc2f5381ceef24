import { isoSeconds } from '../contract/temporal.js';
import { GateError } from '../errors.js';
import { datasetPath, stagingPrefix, type DropAddress, type GateLayout } from '../gate/gate-layout.js';
import { stagedDetail } from '../sla/staged-detail.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import type { PartitionCell } from './lake-status.js';
import type { PartitionSummary } from './partition-table.js';
import { readPublished } from './published-cell.js';
import type { StatusProblems } from './status-problems.js';

export interface CellContext {
  readonly store: ObjectStore;
  readonly layout: GateLayout;
  readonly now: number;
  readonly problems: StatusProblems;
}

/**
 * The cell of one kept partition, by precedence: published, in staging, quarantined, missed,
 * waiting. Reads at most one body: the `_SUCCESS` of a published partition or the latest
 * attempt's `_REPORT.json` of a quarantined one. Undefined when nothing is left to show.
 */
export async function partitionCell(context: CellContext, address: DropAddress, summary: PartitionSummary): Promise<PartitionCell | undefined> {
  const late = summary.missedAt === undefined ? {} : { late: true };
  const base = { partition: address.partition, ...late };
  const published = summary.success === undefined ? undefined : await readPublished(context.store, summary.success, context.problems.add);
  if (published && summary.success !== undefined) {
    const { attempt, ...facts } = published;
    const others = (summary.attempts ?? []).filter((a) => a !== attempt);
    const later = others.filter((a) => attempt !== undefined && a > attempt).sort().at(-1);
    const detail = later ? `${facts.detail}; a later drop was quarantined (attempt ${later})` : facts.detail;
    return { ...base, ...facts, detail, ...(others.length > 0 ? { attempts: others.length } : {}), link: { kind: 'object', key: summary.success } };
  }
  const listing = { kind: 'listing', key: stagingPrefix(context.layout, address) } as const;
  if (summary.staged) {
    const detail = stagedDetail(context.layout, listing.key, summary.staged) ?? `staged under ${listing.key}`;
    return { ...base, state: 'in_staging', at: isoSeconds(summary.staged.newest), detail, ...attemptCount(summary), link: listing };
  }
  if (summary.attempts && summary.attempts.length > 0) return { ...base, ...(await quarantinedFacts(context, address, summary)), attempts: summary.attempts.length };
  return expectedCell(context, summary, base, listing);
}

function attemptCount(summary: PartitionSummary): { attempts?: number } {
  return summary.attempts && summary.attempts.length > 0 ? { attempts: summary.attempts.length } : {};
}

/** The latest attempt by name (attempt ids begin with their decision time), linked to its report page when it has one. */
async function quarantinedFacts(context: CellContext, address: DropAddress, summary: PartitionSummary): Promise<Pick<PartitionCell, 'state' | 'rows' | 'at' | 'detail' | 'link'>> {
  const latest = [...summary.attempts!].sort().at(-1)!;
  const folder = `${context.layout.quarantine}${datasetPath(address)}${latest}/`;
  const reportKey = `${folder}${context.layout.report}`;
  const link = { kind: 'object', key: summary.pages?.includes(latest) ? `${folder}${context.layout.reportPage}` : reportKey } as const;
  const report = await readReport(context.store, reportKey);
  if (typeof report === 'string') {
    context.problems.add(`${context.store.location}/${reportKey} ${report}`);
    return { state: 'quarantined', detail: `quarantined (attempt ${latest}); its report cannot be read`, link };
  }
  return {
    state: 'quarantined',
    ...(report.rows === undefined ? {} : { rows: report.rows }),
    ...(report.checkedAt === undefined ? {} : { at: report.checkedAt }),
    detail: report.summary,
    link,
  };
}

interface ReportFacts {
  readonly rows?: number;
  readonly summary: string;
  readonly checkedAt?: string;
}

/** `rows`, `summary` and `checked_at` of a `_REPORT.json`, or what is wrong with it. */
async function readReport(store: ObjectStore, key: string): Promise<ReportFacts | string> {
  let parsed: unknown;
  try {
    const read = await readVersion(store, key);
    if (!read) return 'went away since it was listed';
    parsed = JSON.parse(new TextDecoder().decode(read.bytes));
  } catch (error) {
    if (error instanceof GateError) return `could not be read: ${error.message}`;
    if (error instanceof SyntaxError) return 'is not JSON';
    throw error;
  }
  const { rows, summary, checked_at: checkedAt } = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Record<string, unknown>;
  if (typeof summary !== 'string') return 'is not a gate report (it has no summary)';
  return { summary, ...(typeof rows === 'number' ? { rows } : {}), ...(typeof checkedAt === 'string' ? { checkedAt } : {}) };
}

/** Nothing arrived: missed when the probe paged it or its page time has passed, else still waiting. */
function expectedCell(context: CellContext, summary: PartitionSummary, base: Pick<PartitionCell, 'partition' | 'late'>, link: PartitionCell['link']): PartitionCell | undefined {
  const { due, missedAt } = summary;
  const never = `never arrived: nothing was dropped under ${link.key}`;
  if (due && (missedAt !== undefined || context.now >= due.pageAfter)) {
    return { ...base, state: 'missed_sla', at: isoSeconds(due.deadline), detail: `due by ${isoSeconds(due.deadline)}; ${never}`, link };
  }
  // Paged, but no longer on the calendar (older than it looks, or no contract now): its deadline is unknown.
  if (missedAt !== undefined) return { ...base, state: 'missed_sla', detail: `paged as missed at ${isoSeconds(missedAt)}; ${never}`, link };
  if (due) return { ...base, state: 'waiting', at: isoSeconds(due.deadline), detail: `due by ${isoSeconds(due.deadline)}; nothing has arrived yet`, link };
  return undefined;
}
