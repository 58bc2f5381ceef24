import { describe, expect, it } from 'vitest';
import { readSubscriptionState, saveSubscriptionState } from '../../lib/subscriptions/subscription-state.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';

const KEY = '_gate/subscriptions.json';
const TOPIC = 'arn:aws:sns:eu-west-1:123456789012:notices';
const DAY = 24 * 3600 * 1000;
const T0 = Date.parse('2026-12-01T00:00:00Z');
const orders = [{ email: 'a@example.com', arn: `${TOPIC}:1`, contracts: ['orders'] }];

describe('the subscription record', () => {
  it('is written when the managed set changes, and otherwise only once a day, so the state lifecycle never expires it', async () => {
    const store = new MemoryObjectStore();
    const empty = await readSubscriptionState(store, KEY, TOPIC);
    expect(await saveSubscriptionState(store, KEY, TOPIC, empty, [], T0)).toBe(false);
    expect(await saveSubscriptionState(store, KEY, TOPIC, empty, orders, T0)).toBe(true);
    const written = await readSubscriptionState(store, KEY, TOPIC);
    expect(written.managed).toEqual(orders);
    expect(await saveSubscriptionState(store, KEY, TOPIC, written, orders, T0 + DAY - 1)).toBe(false);
    expect(await saveSubscriptionState(store, KEY, TOPIC, written, orders, T0 + DAY)).toBe(true);
  });

  it('loses a race rather than overwrite another run\'s record', async () => {
    const store = new MemoryObjectStore();
    const first = await readSubscriptionState(store, KEY, TOPIC);
    const second = await readSubscriptionState(store, KEY, TOPIC);
    await saveSubscriptionState(store, KEY, TOPIC, first, orders, T0);
    await expect(saveSubscriptionState(store, KEY, TOPIC, second, [], T0)).resolves.toBe(false);
    await expect(saveSubscriptionState(store, KEY, TOPIC, second, [{ ...orders[0]!, email: 'b@example.com' }], T0)).rejects.toMatchObject({ code: 'precondition_failed' });
  });

  it('manages nothing of another topic, and refuses to guess from a broken record', async () => {
    const store = new MemoryObjectStore();
    await saveSubscriptionState(store, KEY, TOPIC, await readSubscriptionState(store, KEY, TOPIC), orders, T0);
    expect((await readSubscriptionState(store, KEY, `${TOPIC}-new`)).managed).toEqual([]);
    await store.put(KEY, '{"format": "something else"}');
    await expect(readSubscriptionState(store, KEY, TOPIC)).rejects.toMatchObject({ code: 'storage_failed' });
  });
});
