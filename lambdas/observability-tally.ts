import { checksInThisThread, type CheckRunner } from '../lib/gate/decide.js';
import type { Decision } from '../lib/gate/decision.js';
import type { StagedFile } from '../lib/gate/read-drop.js';
import type { Observed } from '../lib/gate/outcome-metrics.js';
import type { Notifier } from '../lib/notify/notifier.js';

/**
 * What one invocation itself did, seen at its ports. A MarkerResult carries the decision as
 * recorded, and cannot say whether this invocation made and carried it out or a redelivery found
 * it done; but each decision's one notice goes out from the invocation that carries it out
 * (notifyOnce), and checks run only where a drop is validated. So counting drops by the notices
 * this invocation sent counts each drop once, also when a handler died after deciding and the
 * next delivery finished the job.
 */
export interface InvocationTally {
  /** The notifier to run with: it remembers the drops whose notice went out. */
  notifier(inner: Notifier): Notifier;
  /** The check runner to run with: it times each run, by the files it checked. */
  checks(inner: CheckRunner | undefined): CheckRunner;
  observe(decision: Decision): Observed;
}

export function invocationTally(clock: () => number = () => performance.now()): InvocationTally {
  const told = new Set<string>();
  const seconds = new Map<string, number>();
  return {
    notifier: (inner) => ({
      async notify(notice) {
        await inner.notify(notice);
        const { drop, attempt } = notice.attributes;
        if (drop !== undefined && attempt !== undefined) told.add(`${drop} ${attempt}`);
      },
    }),
    checks: (inner) => async (store, contract, now, files, facts) => {
      const started = clock();
      const run = await (inner ?? checksInThisThread)(store, contract, now, files, facts);
      seconds.set(filesKey(files), (clock() - started) / 1000);
      return run;
    },
    observe: (decision) => {
      const validationSeconds = seconds.get(filesKey(decision.files));
      return { carriedOutHere: told.has(`${decision.tag} ${decision.attempt}`), ...(validationSeconds !== undefined ? { validationSeconds } : {}) };
    },
  };
}

/** A drop's files as listed, version and all: the decision names exactly the files its checks read. */
function filesKey(files: readonly Pick<StagedFile, 'key' | 'etag'>[]): string {
  return files.map((f) => `${f.etag} ${f.key}`).join('\n');
}
