import { describe, expect, it } from 'vitest';
import { DEFAULT_LAYOUT } from '../../lib/gate/gate-layout.js';
import type { ObjectStore } from '../../lib/storage/object-store.js';
import { gatePages } from '../../lib/status/gate-pages.js';
import { useLocalBucket } from '../fixtures/local-bucket.js';

// A flood of /_gate/ls (issue 28, point 9): listings cost a LIST of the lake each, so the pages
// make one at a time, reuse it for its prefix, and refuse what would wait past the queue.

const bucket = useLocalBucket('cg-gate-pages-');

/** The bucket's store, counting the listings running at once and in all. */
function countingStore(store: ObjectStore): { store: ObjectStore; most: () => number; listings: () => number } {
  let running = 0;
  let most = 0;
  let listings = 0;
  const list = async function* (prefix: string) {
    running++;
    listings++;
    most = Math.max(most, running);
    try {
      yield* store.list(prefix);
    } finally {
      running--;
    }
  };
  return { store: Object.assign(Object.create(store) as ObjectStore, { list }), most: () => most, listings: () => listings };
}

function pagesOn(store: ObjectStore, waiting: number) {
  return gatePages({ store, layout: DEFAULT_LAYOUT, contracts: async () => [], clock: () => 0, reuseMs: 60_000, waiting });
}

describe('the listing pages of serve under a flood', () => {
  it('make one listing at a time however many prefixes are asked for at once', async () => {
    await Promise.all(['a/1', 'a/2', 'b/1'].map((key) => bucket.store.put(key, key)));
    const counted = countingStore(bucket.store);
    const pages = pagesOn(counted.store, 100);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, at) => pages(`/_gate/ls?prefix=${'ab'[at % 2]}${'/'.repeat(at)}`)));
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(200));
    expect(counted.most()).toBe(1);
  });

  it('make one listing for every request of one prefix', async () => {
    const counted = countingStore(bucket.store);
    const pages = pagesOn(counted.store, 100);
    const answers = await Promise.all(Array.from({ length: 20 }, () => pages('/_gate/ls?prefix=a/')));
    expect(answers[0]).toMatchObject({ status: 200, body: expect.stringContaining('2 objects') });
    expect(answers.every((a) => a === answers[0])).toBe(true);
    expect(counted.listings()).toBe(1);
  });

  it('refuse with 503 what would wait past the queue, and answer again once it drained', async () => {
    const counted = countingStore(bucket.store);
    const pages = pagesOn(counted.store, 2);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, at) => pages(`/_gate/ls?prefix=${'/'.repeat(at)}`)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 503, 503, 503]);
    expect(answers[3]!.body).toContain('busy');
    expect(counted.listings()).toBe(3);
    expect((await pages('/_gate/ls?prefix=b/')).status).toBe(200);
  });
});
