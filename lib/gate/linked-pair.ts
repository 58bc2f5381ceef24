import { GateError } from '../errors.js';
import type { Violation } from '../report/report.js';
import { readVersion, type ObjectStore } from '../storage/object-store.js';
import { describeAddress } from './drop-link.js';
import type { Decision } from './decision.js';
import { datasetPath, type DropAddress, type GateLayout } from './gate-layout.js';
import { createDecision, decisionKeyOf, type RecordedDecision } from './recorded-decision.js';

/**
 * The one decision on a linked drop, written once with a conditional create under
 * `<state>pairs/`: both sides' decisions as they are to be carried out. Each side's ordinary
 * decision record (under `decisions/`, as status, redrive and audit read it) is a copy of its
 * side here, so a handler that died between the two records leaves nothing to decide again.
 */
export interface PairRecord {
  readonly format: 'contract-gate/pair@1';
  readonly decided_at: string;
  /** In the pair's fixed order (see orderSides): the order leases are taken and sides carried out. */
  readonly sides: readonly [Decision, Decision];
}

export interface PairSide {
  readonly address: DropAddress;
  readonly tag: string;
}

/** A fixed order of the two sides (major, then partition), so two handlers take the leases alike and never deadlock. */
export function orderSides<T extends PairSide>(a: T, b: T): [T, T] {
  const before = a.address.major !== b.address.major ? a.address.major < b.address.major : a.address.partition < b.address.partition;
  return before ? [a, b] : [b, a];
}

/** The pair record's key: under the first side's partition, named by both drops' tags. */
export function pairKeyOf(layout: GateLayout, a: PairSide, b: PairSide): string {
  const [first, second] = orderSides(a, b);
  return `${layout.state}pairs/${datasetPath(first.address)}${first.tag}+v${second.address.major}-${second.tag}.json`;
}

/**
 * Both sides' verdicts made one: published only if both pass. A passing side whose sibling
 * did not pass is quarantined too, with a `linked_sibling` violation saying why.
 */
export function pairDecision(key: string, a: Decision, b: Decision, decidedAt: string): PairRecord {
  const both = a.outcome === 'publish' && b.outcome === 'publish';
  const [first, second] = orderSides(a, b).map((side) => (both || side.outcome !== 'publish' ? side : heldBack(side, side === a ? b : a))) as [Decision, Decision];
  return { format: 'contract-gate/pair@1', decided_at: decidedAt, sides: [linkTo(first, second, key), linkTo(second, first, key)] };
}

function linkTo(mine: Decision, theirs: Decision, pair: string): Decision {
  return { ...mine, linked: { address: theirs.address, tag: theirs.tag, attempt: theirs.attempt, outcome: theirs.outcome, summary: theirs.report.summary, pair } };
}

/** A side that passed, quarantined with a sibling that did not. Rows it would have withheld stay with the rest. */
function heldBack(mine: Decision, theirs: Decision): Decision {
  const sibling = describeAddress(theirs.address);
  const violation: Violation = {
    rule: 'linked_sibling',
    severity: 'error',
    count: 1,
    message: `its linked sibling ${sibling} was not published (${theirs.outcome}: ${theirs.report.summary}); a linked drop is published only when both sides pass, so this side, which passed, is quarantined with it. Fix the sibling and drop both again`,
    samples: [{ file: mine.report.source.marker.key, row: null, value: sibling }],
  };
  const { withheld: _withheld, ...rest } = mine;
  const report = { ...mine.report, status: 'fail' as const, violations: [violation, ...mine.report.violations], summary: `failed: its linked sibling ${sibling} failed (${theirs.report.summary})` };
  return { ...rest, outcome: 'quarantine', report };
}

/** The pair record at `key`, or undefined. */
export async function readPair(store: ObjectStore, key: string): Promise<PairRecord | undefined> {
  const read = await readVersion(store, key);
  if (!read) return undefined;
  try {
    const record = JSON.parse(new TextDecoder().decode(read.bytes)) as Partial<PairRecord>;
    if (record.format === 'contract-gate/pair@1' && Array.isArray(record.sides) && record.sides.length === 2) return record as PairRecord;
  } catch {
    // not the gate's: said below
  }
  throw new GateError('storage_failed', `${store.location}/${key} exists but cannot be read as a linked drop's pair record`);
}

/** The first pair record wins: concurrent deciders converge on whichever landed first. */
export async function createPair(store: ObjectStore, key: string, record: PairRecord): Promise<PairRecord> {
  try {
    await store.put(key, `${JSON.stringify(record, null, 2)}\n`, { ifNoneMatch: '*', contentType: 'application/json' });
    return record;
  } catch (error) {
    if (!(error instanceof GateError && error.code === 'precondition_failed')) throw error;
    const theirs = await readPair(store, key);
    if (!theirs) throw new GateError('storage_failed', `${key}: the pair record was created and is gone`, { cause: error });
    return theirs;
  }
}

/** Both sides' ordinary decision records, made from the pair record, in the pair's order (conditional creates: a record already there wins). */
export async function recordSides(store: ObjectStore, layout: GateLayout, pair: PairRecord): Promise<[RecordedDecision, RecordedDecision]> {
  const first = await createDecision(store, decisionKeyOf(layout, pair.sides[0].address, pair.sides[0].tag), pair.sides[0]);
  const second = await createDecision(store, decisionKeyOf(layout, pair.sides[1].address, pair.sides[1].tag), pair.sides[1]);
  return [first, second];
}

/**
 * Before a linked side is carried out, its sibling's record exists too (a handler may have died
 * between the two creates), so whoever finishes either side finishes the pair. Returns the
 * sibling's decision as the pair made it, for the pair's one notice.
 */
export async function ensureSibling(store: ObjectStore, layout: GateLayout, decision: Decision): Promise<Decision | undefined> {
  const { linked } = decision;
  if (!linked) return undefined;
  const pair = await readPair(store, linked.pair);
  const sibling = pair?.sides.find((side) => side.tag === linked.tag && datasetPath(side.address) === datasetPath(linked.address));
  if (!sibling) throw new GateError('storage_failed', `${store.location}/${linked.pair}: the pair record of ${describeAddress(decision.address)} is missing or does not hold its sibling; the sibling's decision cannot be made`);
  const key = decisionKeyOf(layout, sibling.address, sibling.tag);
  if (!(await store.head(key))) await createDecision(store, key, sibling);
  return sibling;
}
