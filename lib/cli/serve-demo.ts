import { join } from 'node:path';
import { dropPartition } from '../gate/drop-partition.js';
import { DEFAULT_LAYOUT, stagingPrefix } from '../gate/gate-layout.js';
import type { LocalGate } from '../local/local-gate.js';
import { DEMO_NOW } from './demo-command.js';
import { localDropFiles } from './local-drop-files.js';

const EXAMPLES = join('examples', 'orders');
const PARTITION = 'dt=2026-11-29';

/**
 * Drops the good example partition as `dt=2026-11-29` and the bad one as `dt=2026-11-28`, waits
 * for the gate, and lists where everything went.
 */
export async function runDemo(gate: LocalGate, contractsDir: string, print: (line: string) => void): Promise<void> {
  const drops = [
    { kind: 'good', partition: PARTITION },
    { kind: 'bad', partition: 'dt=2026-11-28' },
  ];
  for (const drop of drops) {
    const files = await localDropFiles(join(contractsDir, EXAMPLES, drop.kind, PARTITION));
    const prefix = stagingPrefix(DEFAULT_LAYOUT, { dataset: 'orders', major: 1, partition: drop.partition });
    print(`\ndemo: dropping the ${drop.kind} example as s3://${gate.bucket}/${prefix}`);
    await dropPartition(gate.store, DEFAULT_LAYOUT, prefix, files);
    await gate.settled();
  }
  print(`\ndemo: the gate ran as of ${DEMO_NOW}, the morning after the examples' day; the bucket now holds`);
  for await (const object of gate.store.list('')) print(`  s3://${gate.bucket}/${object.key} (${object.size} bytes)`);
}
