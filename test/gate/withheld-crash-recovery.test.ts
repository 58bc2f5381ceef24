import { describe, expect, it } from 'vitest';
import { contractRegistry } from '../../lib/gate/contract-registry.js';
import { processMarker } from '../../lib/gate/process-marker.js';
import { crashingStore, Crash } from '../fixtures/crashing-store.js';
import { NOW, RecordingNotifier } from '../fixtures/gate-fixture.js';
import { MemoryObjectStore } from '../fixtures/memory-object-store.js';
import { expectNothingLost } from '../fixtures/no-loss.js';
import { contractFrom } from '../fixtures/partition.js';

const CONTRACT = contractFrom(`name: events
version: 1.0.0
owner: { team: t, notify: [t@example.com] }
produces: { format: csv }
on_violation: { max_invalid_rows: 3 }
schema:
  columns:
    - { name: id, type: int64, required: true }
    - { name: status, type: string, enum: [a, b] }
`);
const PREFIX = 'staging/events/v1/dt=2026-11-29/';
const MARKER = `${PREFIX}_READY`;
const encode = (text: string) => new TextEncoder().encode(text);
const FILES = [
  { key: `${PREFIX}a.csv`, bytes: encode('id,status\n1,a\n2,zz\n3,b\n') },
  { key: `${PREFIX}b.csv`, bytes: encode('id,status\r\n4,"a"\r\n5,b\r\n6,"q\nq"\r\n7,a\r\n') },
  { key: `${PREFIX}c.csv`, bytes: encode('id,status\n8,a\n') },
];

async function dropped(): Promise<MemoryObjectStore> {
  const store = new MemoryObjectStore();
  for (const file of FILES) await store.put(file.key, file.bytes);
  await store.put(MARKER, '');
  return store;
}

const deps = (store: MemoryObjectStore | ReturnType<typeof crashingStore>, notifier = new RecordingNotifier()) => ({ store, notifier, contracts: contractRegistry([CONTRACT]), clock: () => NOW });
const text = async (store: MemoryObjectStore, key: string) => new TextDecoder().decode(await store.read(key, 0, (await store.head(key))!.size));

describe('a publish that withholds rows, with a handler that dies before any storage call', () => {
  it('ends with the valid lines published, the invalid ones dead-lettered and every dropped byte kept', async () => {
    const clean = await dropped();
    const counting = crashingStore(clean);
    await processMarker(deps(counting), MARKER);
    expect(await text(clean, 'published/events/v1/dt=2026-11-29/a.csv')).toBe('id,status\n1,a\n3,b\n');
    expect(await text(clean, 'published/events/v1/dt=2026-11-29/b.csv')).toBe('id,status\r\n4,"a"\r\n5,b\r\n7,a\r\n');
    expect(await text(clean, 'published/events/v1/dt=2026-11-29/c.csv')).toBe('id,status\n8,a\n');
    const rejected = clean.keys('quarantine/').find((key) => key.endsWith('/rejected-rows.csv'))!;
    const lines = await text(clean, rejected);
    expect(lines).toContain('2,zz');
    expect(lines).toContain('6,"q\nq"');
    expect(lines.split('\n')[0]).toMatch(/^_file,_row,_rule,_column,_message,id,status\r?$/);
    const end = clean.keys();
    for (let crashAt = 1; crashAt <= counting.mutations; crashAt++) {
      const store = await dropped();
      const notifier = new RecordingNotifier();
      await expect(processMarker(deps(crashingStore(store, crashAt), notifier), MARKER)).rejects.toBeInstanceOf(Crash);
      await expectNothingLost(store, FILES);
      await processMarker({ ...deps(store, notifier), lease: { holder: 'redelivery', ttlMs: 60_000, takeOver: () => true } }, MARKER);
      await expectNothingLost(store, FILES);
      const records = store.keys().filter((key) => !key.startsWith('_gate/leases/'));
      expect({ crashAt, keys: records }).toEqual({ crashAt, keys: end.filter((key) => !key.startsWith('_gate/leases/')) });
      for (const key of records.filter((k) => k.startsWith('published/') && k.endsWith('.csv'))) {
        expect({ crashAt, key, text: await text(store, key) }).toEqual({ crashAt, key, text: await text(clean, key) });
      }
      expect(notifier.notices.map((n) => n.attributes.outcome).slice(0, 1)).toEqual(['published']);
    }
  });
});
