import { GateError } from '../errors.js';
import type { Notifier } from '../notify/notifier.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { Decision } from './decision.js';
import { datasetPath, type GateLayout } from './gate-layout.js';
import { notifyOnce } from './notify-once.js';
import { sha256Hex } from '../storage/content-hash.js';

/**
 * Told of a record of the gate's own that names another place than the key it is stored at (a
 * decision of another dataset or partition copied in, say): such a record is never believed.
 */
export type MisplacedWatch = (key: string, problem: string) => Promise<void>;

/** Why a decision stored at `key` is not where it says it belongs, or undefined. */
export function misplacedDecision(key: string, decision: Decision): string | undefined {
  const { address, tag } = decision;
  const said = `decisions/${datasetPath(address ?? { dataset: '?', major: 0, partition: '?' })}${tag}.json`;
  return key.endsWith(`/${said}`) ? undefined : `names ${address ? `${address.dataset} v${address.major} ${address.partition}` : 'no partition'}, tag ${JSON.stringify(tag)}, so it belongs at …/${said}`;
}

/** The error a misplaced record is refused with: a GateError whose context says so, for readers that skip it. */
export function misplacedError(store: ObjectStore, key: string, problem: string): GateError {
  return new GateError('storage_failed', `${store.location}/${key} ${problem}: it is not believed and not carried out; find how it got there, then remove it`, { context: { key, misplaced: true } });
}

export function isMisplaced(error: unknown): boolean {
  return error instanceof GateError && (error.context as { misplaced?: unknown }).misplaced === true;
}

/**
 * Logs a misplaced record and pages about it once (a notice claim per key, under
 * `<state>misplaced/`): to the owner of the dataset its key names and to the alert addresses,
 * which get every notice.
 */
export function pageMisplaced(deps: { store: ObjectStore; notifier: Notifier; layout: GateLayout; clock: () => number; warn?: (line: string) => void }): MisplacedWatch {
  return async (key, problem) => {
    (deps.warn ?? ((line) => console.warn(line)))(`contract-gate: ignored ${deps.store.location}/${key}: it ${problem}`);
    const [dataset = 'unknown', version = 'unknown', ...partition] = key.slice(key.indexOf('/', deps.layout.state.length) + 1).split('/').slice(0, -1);
    const notice = {
      subject: `contract-gate: a record of the gate is not where it says it belongs (${dataset})`.slice(0, 100),
      body: [
        `The gate found ${deps.store.location}/${key}, which ${problem}.`,
        'It was ignored: nothing it says was carried out. The gate writes its records where they belong, so something',
        'else wrote or copied this one. Find out what (the bucket\'s access logs), then remove it.',
      ].join('\n'),
      attributes: { contract: dataset, version, owner: 'unknown', outcome: 'misplaced_record' as const, severity: 'critical' as const, ...(partition.length > 0 ? { partition: partition.join('/') } : {}) },
    };
    await notifyOnce(deps.store, deps.notifier, `${deps.layout.state}misplaced/${sha256Hex(new TextEncoder().encode(key)).slice(0, 32)}.json`, notice, deps.clock());
  };
}
