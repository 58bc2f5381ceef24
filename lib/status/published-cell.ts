import { GateError } from '../errors.js';
import { isProblem, publishedRows, readSuccessManifest, type SuccessManifest } from '../gate/success-record.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { PartitionCell } from './lake-status.js';

/** The cell fields a `_SUCCESS` gives; the caller adds partition, late flag and attempts. */
export type PublishedFacts = Pick<PartitionCell, 'state' | 'rows' | 'at' | 'detail'> & {
  /** The attempt that was published: its quarantine folder, if any, holds withheld rows, not a failure. */
  readonly attempt?: string;
};

/**
 * Reads a published partition's `_SUCCESS`. Undefined when it went away since it was listed (a
 * backfill taking the old publish down): the partition is then what the rest of the lake says.
 * An unreadable one is still published, but shown as needing a look, its problem reported.
 */
export async function readPublished(store: ObjectStore, key: string, problem: (text: string) => void): Promise<PublishedFacts | undefined> {
  let manifest: Awaited<ReturnType<typeof readSuccessManifest>>;
  try {
    manifest = await readSuccessManifest(store, key);
  } catch (error) {
    if (!(error instanceof GateError)) throw error;
    manifest = { problem: `${store.location}/${key} could not be read: ${error.message}` };
  }
  if (manifest === undefined) return undefined;
  const rows = isProblem(manifest) ? manifest : publishedRows(manifest);
  if (isProblem(rows)) {
    problem(rows.problem);
    return { state: 'published_with_warnings', detail: `published, but its manifest cannot be read: ${rows.problem}` };
  }
  const fields = (manifest as SuccessManifest).fields;
  const { attempt, decided_at: decidedAt } = fields;
  const told = publishedDetail(fields, rows);
  return {
    state: told.warned ? 'published_with_warnings' : 'published',
    rows,
    ...(typeof decidedAt === 'string' ? { at: decidedAt } : {}),
    detail: told.detail,
    ...(typeof attempt === 'string' ? { attempt } : {}),
  };
}

/** "published 1,000 rows", "published with 2 warnings: …", "990 rows published, 10 withheld", or a release. */
function publishedDetail(fields: Readonly<Record<string, unknown>>, rows: number): { detail: string; warned: boolean } {
  const checks = record(fields.checks);
  const warned = Array.isArray(checks.warned) ? checks.warned.map(record) : [];
  const withheld = record(fields.withheld).rows;
  const release = fields.release === undefined ? undefined : record(fields.release);
  const warnings = warned.length > 0 ? `${count(warned.length, 'warning')}: ${topOf(warned)}` : undefined;
  if (release || checks.status === 'fail') {
    const failed = typeof checks.violations === 'number' ? count(checks.violations, 'failed check') : 'failed checks';
    return { detail: `${number(rows)} rows released over ${failed}${typeof release?.by === 'string' ? ` by ${release.by}` : ''}`, warned: true };
  }
  if (typeof withheld === 'number' && withheld > 0) {
    return { detail: `${number(rows)} rows published, ${number(withheld)} withheld${warnings ? `; ${warnings}` : ''}`, warned: true };
  }
  if (warnings) return { detail: `published with ${warnings}`, warned: true };
  return { detail: `published ${number(rows)} rows`, warned: checks.status === 'warn' };
}

function topOf(warned: readonly Record<string, unknown>[]): string {
  const top = warned.slice(0, 3).map((w) => `${String(w.rule)}${typeof w.column === 'string' ? ` ${w.column}` : ''}${typeof w.count === 'number' ? ` (${number(w.count)})` : ''}`);
  return `${top.join(', ')}${warned.length > 3 ? `, and ${warned.length - 3} more` : ''}`;
}

const number = (value: number) => value.toLocaleString('en-US');
const count = (value: number, noun: string) => `${number(value)} ${noun}${value === 1 ? '' : 's'}`;

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
