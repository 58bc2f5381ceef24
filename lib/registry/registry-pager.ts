import type { GateLayout } from '../gate/gate-layout.js';
import { notifyOnce } from '../gate/notify-once.js';
import type { Notice, Notifier } from '../notify/notifier.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { RegistryProblem } from './registry-look.js';

export interface RegistryPagerDeps {
  readonly store: ObjectStore;
  readonly notifier: Notifier;
  /** Its state prefix holds the claims: `<state>registry-pages/<dataset>/v<major>/<pointer ETag>.json`. */
  readonly layout: GateLayout;
  readonly clock?: () => number;
}

/**
 * Pages about a registry pointer that is not in force, once per pointer ETag however many
 * readers see it (a claim, as every notice of the gate). The notice is about the dataset and
 * major the pointer's key names, so it reaches the subscribers of the contract in force there
 * (its owner) and the gate's alert addresses, which get every notice.
 */
export function registryPager(deps: RegistryPagerDeps): (problem: RegistryProblem) => Promise<void> {
  const clock = deps.clock ?? Date.now;
  return async (problem) => {
    const claim = `${deps.layout.state}registry-pages/${problem.dataset}/v${problem.major}/${problem.etag.replace(/[^A-Za-z0-9-]/g, '')}.json`;
    await notifyOnce(deps.store, deps.notifier, claim, registryNotice(problem, deps.store.location), clock());
  };
}

export function registryNotice(problem: RegistryProblem, location: string): Notice {
  const dataset = `${problem.dataset} v${problem.major}`;
  const owner = problem.inForce?.owner.team;
  return {
    subject: `[contract-gate] ${dataset}: registry pointer not enforced`.slice(0, 100),
    body: [
      `Dataset:   ${dataset}${owner ? ` (owner ${owner})` : ''}`,
      `Pointer:   ${location}/${problem.key} (ETag ${problem.etag})`,
      '',
      problem.text,
      '',
      'The gate keeps judging drops by the version shown in force. Publish the contract with `contract-gate publish` to replace the pointer.',
    ].join('\n') + '\n',
    attributes: {
      contract: problem.dataset,
      version: `v${problem.major}`,
      owner: owner ?? 'unknown',
      outcome: 'registry_refused',
      severity: 'critical',
    },
  };
}
