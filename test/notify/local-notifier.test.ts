import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GateError } from '../../lib/errors.js';
import { localNotifier } from '../../lib/notify/local-notifier.js';
import type { Notice } from '../../lib/notify/notifier.js';

const quarantined: Notice = {
  subject: 'orders v1 dt=2026-11-30 quarantined',
  body: 'Partition dt=2026-11-30 failed 2 checks.\nSee the report.',
  attributes: { contract: 'orders', version: '1', owner: 'team-orders', outcome: 'quarantined', severity: 'critical', partition: 'dt=2026-11-30' },
};
const stale: Notice = {
  subject: 'orders v1 is stale',
  body: 'No partition since 2026-11-28.',
  attributes: { contract: 'orders', version: '1', owner: 'team-orders', outcome: 'stale', severity: 'warning' },
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'local-notifier-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function jsonLines(file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.trimEnd().split('\n').map((line) => JSON.parse(line) as unknown);
}

/** A clock that ticks one second per reading, from a pinned instant. */
function tickingClock(start: string): () => Date {
  let tick = 0;
  return () => new Date(Date.parse(start) + 1000 * tick++);
}

describe('localNotifier', () => {
  it('appends each notice as one JSON line, in order, creating the directories', async () => {
    const file = join(dir, 'deep', 'er', 'notices.jsonl');
    const notifier = localNotifier({ file, print: () => {}, now: tickingClock('2026-12-01T06:00:00Z') });
    await notifier.notify(quarantined);
    await notifier.notify(stale);
    expect(await jsonLines(file)).toEqual([
      { at: '2026-12-01T06:00:00.000Z', ...quarantined },
      { at: '2026-12-01T06:00:01.000Z', ...stale },
    ]);
  });

  it('adds to a file that already holds notices rather than replacing it', async () => {
    const file = join(dir, 'notices.jsonl');
    const now = () => new Date('2026-12-01T06:00:00Z');
    await localNotifier({ file, print: () => {}, now }).notify(quarantined);
    await localNotifier({ file, print: () => {}, now }).notify(stale);
    expect((await jsonLines(file)).map((line) => (line as Notice).attributes.outcome)).toEqual(['quarantined', 'stale']);
  });

  it('prints one readable line per notice with outcome, severity, contract, version and partition', async () => {
    const printed: string[] = [];
    const notifier = localNotifier({ file: join(dir, 'notices.jsonl'), print: (line) => printed.push(line) });
    await notifier.notify(quarantined);
    await notifier.notify({ ...stale, subject: 'orders v1\nis stale' });
    expect(printed).toEqual([
      '[quarantined/critical] orders v1 dt=2026-11-30: orders v1 dt=2026-11-30 quarantined',
      '[stale/warning] orders v1: orders v1 is stale',
    ]);
  });

  it('keeps 20 concurrent notices as 20 intact lines', async () => {
    const file = join(dir, 'notices.jsonl');
    const notifier = localNotifier({ file, print: () => {} });
    // A large body makes interleaved writes likely if appends were not serialised.
    const notices = Array.from({ length: 20 }, (_, i) => ({ ...quarantined, subject: `notice ${i}`, body: `${i} `.repeat(20_000) }));
    await Promise.all(notices.map((notice) => notifier.notify(notice)));
    const lines = (await jsonLines(file)) as Notice[];
    expect(lines).toHaveLength(20);
    expect(lines.map((line) => line.subject)).toEqual(notices.map((notice) => notice.subject));
    expect(lines.every((line, i) => line.body === notices[i]!.body)).toBe(true);
  });

  it('throws notify_failed naming the file when it cannot append', async () => {
    const file = join(dir, 'notices.jsonl', 'inside-a-directory.jsonl');
    const notifier = localNotifier({ file: join(dir, 'notices.jsonl'), print: () => {} });
    await notifier.notify(stale);
    const blocked = localNotifier({ file, print: () => {} });
    await expect(blocked.notify(stale)).rejects.toSatisfy(
      (error: unknown) => error instanceof GateError && error.code === 'notify_failed' && error.context.file === file,
    );
  });

  it('still appends later notices after one append failed', async () => {
    const file = join(dir, 'notices.jsonl');
    const notifier = localNotifier({ file, print: () => {} });
    // A directory where the file should be makes the first append fail.
    await mkdir(file);
    await expect(notifier.notify(stale)).rejects.toBeInstanceOf(GateError);
    await rm(file, { recursive: true });
    await notifier.notify(quarantined);
    expect(await jsonLines(file)).toEqual([expect.objectContaining({ subject: quarantined.subject })]);
  });
});
