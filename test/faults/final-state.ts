import { parseDecision, type Decision } from '../../lib/gate/decision.js';
import { readWhole, type ObjectInfo, type ObjectStore } from '../../lib/storage/object-store.js';
import { listed } from './bucket-observer.js';
import type { StagedDrop } from './five-file-drop.js';
import type { NoticeLog } from './notice-log.js';
import { EMPTY_ETAG } from './torn-object.js';
import type { Violations } from './violations.js';

/**
 * The end state of a drop once redelivery converged: one decision, carried out once and whole,
 * every staged byte at its destination, the marker gone, one notification. `publishes`: whether
 * the drop should have been published (a linked side: only if both sides are good).
 */
export async function checkFinalState(store: ObjectStore, drop: StagedDrop, notices: NoticeLog, violations: Violations, publishes = drop.kind === 'good'): Promise<Decision | undefined> {
  const decision = await onlyDecision(store, drop, violations);
  if (!decision) return undefined;
  if (publishes !== (decision.outcome === 'publish')) violations.add('right-outcome', `${drop.partition} v${drop.major}: a ${drop.kind} drop was decided "${decision.outcome}": ${decision.report.summary}`);
  await checkStagingEmpty(store, drop, violations);
  await checkPlaces(store, drop, decision, violations);
  await checkBytes(store, drop, decision, violations);
  checkNotices(drop, decision, notices, violations);
  return decision;
}

async function onlyDecision(store: ObjectStore, drop: StagedDrop, violations: Violations): Promise<Decision | undefined> {
  const records = await listed(store, `_gate/decisions/orders/v${drop.major}/${drop.partition}/`);
  if (records.length !== 1) {
    violations.add(records.length === 0 ? 'converged' : 'one-outcome', `${drop.partition}: ${records.length} decision records`);
    return undefined;
  }
  const [record] = records as [ObjectInfo];
  return parseDecision(new TextDecoder().decode(await store.read(record.key, 0, record.size)));
}

async function checkStagingEmpty(store: ObjectStore, drop: StagedDrop, violations: Violations): Promise<void> {
  const left = (await listed(store, drop.prefix)).map((o) => o.key);
  if (left.length > 0) violations.add('converged', `${drop.partition}: still staged after convergence: ${left.join(', ')}`);
}

/** Published holds the files and _SUCCESS, or quarantine holds one attempt folder; nothing else. */
async function checkPlaces(store: ObjectStore, drop: StagedDrop, decision: Decision, violations: Violations): Promise<void> {
  const relatives = drop.files.map((f) => f.relative);
  const publish = decision.outcome === 'publish';
  const expected = {
    published: publish ? [...relatives, '_SUCCESS'] : [],
    quarantine: publish ? [] : [...relatives, '_READY', '_REPORT.html', '_REPORT.json'].map((name) => `${decision.attempt}/${name}`),
  };
  for (const place of ['published', 'quarantine'] as const) {
    const prefix = `${place}/orders/v${drop.major}/${drop.partition}/`;
    const found = (await listed(store, prefix)).map((o) => o.key.slice(prefix.length)).sort();
    const wanted = [...expected[place]].sort();
    if (found.join('\n') !== wanted.join('\n')) violations.add('one-outcome', `${drop.partition}: ${place}/ holds [${found.join(', ')}], expected [${wanted.join(', ')}]`);
  }
}

/**
 * Byte for byte, not by ETag: the emulator copies a source's MD5 with the object, so an ETag
 * says nothing about the copied bytes. Sizes come from the listing, so one ranged GET a file.
 */
async function checkBytes(store: ObjectStore, drop: StagedDrop, decision: Decision, violations: Violations): Promise<void> {
  const home = decision.outcome === 'publish' ? `published/orders/v${drop.major}/${drop.partition}/` : `quarantine/orders/v${drop.major}/${drop.partition}/${decision.attempt}/`;
  const sizes = new Map((await listed(store, home)).map((o) => [o.key, o.size]));
  const read = async (key: string) => (sizes.has(key) ? Buffer.from(await store.read(key, 0, sizes.get(key)!)) : undefined);
  for (const file of drop.files) {
    const bytes = await read(`${home}${file.relative}`);
    if (!bytes || Buffer.compare(bytes, Buffer.from(file.bytes)) !== 0) violations.add('bytes-kept', `${file.key}: ${home}${file.relative} is ${bytes ? 'different' : 'missing'}`);
  }
  if (decision.outcome === 'publish') return checkSuccess(store, drop, home, violations);
  const marker = await read(`${home}_READY`);
  if (marker === undefined || marker.toString() !== drop.markerBody) violations.add('bytes-kept', `${drop.marker}: the quarantined copy is ${marker ? 'different' : 'missing'}`);
}

/** _SUCCESS lists exactly the published files as they are, and keeps the producer's manifest. */
async function checkSuccess(store: ObjectStore, drop: StagedDrop, home: string, violations: Violations): Promise<void> {
  const bytes = await readWhole(store, `${home}_SUCCESS`);
  const manifest = bytes && (JSON.parse(new TextDecoder().decode(bytes)) as { files: { key: string; size: number; etag: string }[]; producer_manifest?: unknown });
  const listedFiles = (manifest?.files ?? []).map((f) => `${f.key} ${f.size} ${f.etag}`).sort();
  const actual = drop.files.map((f) => `${home}${f.relative} ${f.bytes.length} ${f.md5}`).sort();
  if (listedFiles.join('\n') !== actual.join('\n')) {
    // The gate lists the ETag S3 gave it; an empty one came from the emulator mid-write.
    const torn = manifest?.files.some((f) => f.etag === EMPTY_ETAG) ?? false;
    violations.add(torn ? 'torn-read' : 'reader', `${home}_SUCCESS lists [${listedFiles.join(', ')}], published are [${actual.join(', ')}]`);
  }
  const kept = drop.markerBody === '' ? undefined : JSON.parse(drop.markerBody);
  if (JSON.stringify(manifest?.producer_manifest) !== JSON.stringify(kept)) violations.add('bytes-kept', `${drop.marker}: the producer's manifest is not kept in _SUCCESS`);
}

function checkNotices(drop: StagedDrop, decision: Decision, notices: NoticeLog, violations: Violations): void {
  const sent = notices.forPartition(drop.partition);
  const outcome = decision.outcome === 'publish' ? 'published' : 'quarantined';
  // A handler that dies after SNS took the notice and before its claim said so makes the next one
  // send it again under the same id, which subscribers deduplicate: distinct ids are what reach people.
  const distinct = new Set(sent.map((n) => n.id));
  if (distinct.size > 1) violations.add('notices<=1', `${drop.partition}: ${distinct.size} notifications (${sent.map((n) => `${n.handler} ${n.id}`).join(', ')})`);
  if (sent.length === 0) violations.add('notice-sent', `${drop.partition}: ${outcome}, and the owner was never notified`);
  for (const notice of sent) if (notice.outcome !== outcome) violations.add('one-outcome', `${drop.partition}: decided ${outcome}, notified ${notice.outcome}`);
}
