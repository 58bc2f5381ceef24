import { join } from 'node:path';
import { dropPartition } from '../gate/drop-partition.js';
import { DEFAULT_LAYOUT, stagingPrefix } from '../gate/gate-layout.js';
import type { LocalGate } from '../local/local-gate.js';
import { DEMO_NOW } from './demo-command.js';
import { localDropFiles } from './local-drop-files.js';

const EXAMPLES = join('examples', 'orders');
const PARTITION = 'dt=2026-11-29';

/**
 * Every example holds orders of 2026-11-29, and each is dropped as a partition of its own so each
 * gets its own verdict. A good one goes to that day or a later one: an earlier day is judged as
 * of its own due time, before those orders were placed (not_in_future).
 */
const DEMO_DROPS = [
  { kind: 'good', partition: PARTITION, what: 'the good example' },
  { kind: 'duckdb', partition: 'dt=2026-11-30', what: 'the good example DuckDB wrote (COPY ... (FORMAT parquet), default settings)' },
  { kind: 'bad', partition: 'dt=2026-11-28', what: 'the bad example' },
] as const;

/** Drops each example partition, waits for the gate after each, and lists where everything went. */
export async function runDemo(gate: LocalGate, contractsDir: string, print: (line: string) => void): Promise<void> {
  for (const drop of DEMO_DROPS) {
    const files = await localDropFiles(join(contractsDir, EXAMPLES, drop.kind, PARTITION));
    const prefix = stagingPrefix(DEFAULT_LAYOUT, { dataset: 'orders', major: 1, partition: drop.partition });
    print(`\ndemo: dropping ${drop.what} as s3://${gate.bucket}/${prefix}`);
    await dropPartition(gate.store, DEFAULT_LAYOUT, prefix, files);
    await carriedOut(gate, `${prefix}${DEFAULT_LAYOUT.marker}`, print);
  }
  print(`\ndemo: the gate ran as of ${DEMO_NOW}, the morning after the examples' day; the bucket now holds`);
  for await (const object of gate.store.list('')) print(`  s3://${gate.bucket}/${object.key} (${object.size} bytes)`);
}

/**
 * The gate removes the marker last. Its event reaches the gate over another channel than the
 * upload's answer, so waiting for handlers in flight right after the upload could miss it.
 */
async function carriedOut(gate: LocalGate, marker: string, print: (line: string) => void): Promise<void> {
  for (let waited = 0; (await gate.store.head(marker)) !== undefined; waited += 25) {
    if (waited > 120_000) return print(`demo: the gate has not finished ${marker}; see the lines above`);
    await gate.settled();
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
