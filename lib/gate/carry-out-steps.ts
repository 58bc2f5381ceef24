import { GateError } from '../errors.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { htmlReport, type ReportPageInput } from '../report/html-report.js';
import type { Decision } from './decision.js';
import { isChangeError } from './pinned-copy.js';

// Steps of a carry-out that more than one way of moving a drop takes (carry-out.ts, withheld-rows.ts).

/** The marker is kept beside the files it completed: copied, or written from its text once a newer marker replaced it. */
export async function keepMarker(store: ObjectStore, decision: Decision, target: string): Promise<void> {
  const marker = decision.report.source.marker;
  try {
    await store.copy(marker.key, target, { sourceIfMatch: marker.etag });
  } catch (error) {
    if (!isChangeError(error)) throw error;
    if (decision.marker_text !== undefined) await store.put(target, decision.marker_text);
  }
}

/**
 * The report's page, before `_REPORT.json`, whose presence says the attempt's folder is whole.
 * The page is made from the decision alone, so a delivery that resumes writes the same bytes over it.
 */
export async function writeReportPage(store: ObjectStore, key: string, report: ReportPageInput): Promise<void> {
  await store.put(key, htmlReport(report), { contentType: 'text/html; charset=utf-8' });
}

/** Conditional create; an existing object written by the same attempt counts as done. */
export async function createOnce(store: ObjectStore, key: string, body: string, attempt: string): Promise<void> {
  try {
    await store.put(key, body, { ifNoneMatch: '*', contentType: 'application/json' });
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const existing = await readJson(store, key);
    if (existing?.attempt !== attempt) throw new GateError('precondition_failed', `${key} was written by attempt ${String(existing?.attempt)} while ${attempt} was publishing`, { cause: error });
  }
}

/** A JSON object the gate wrote; something else under the key reads as `{}`. */
export async function readJson(store: ObjectStore, key: string): Promise<Record<string, unknown> | undefined> {
  const bytes = await readWhole(store, key);
  if (!bytes) return undefined;
  try {
    return JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
  } catch {
    return {};
  }
}
