import { GateError } from '../../lib/errors.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { planRequested, type FanoutPlan } from '../../lib/fanout/plan-fanout.js';
import { decodeS3Key } from '../../lib/gate/storage-events.js';
import { dropLogger, observed, type InvocationContext } from '../observability.js';
import { runKeys } from '../observability-drops.js';
import { runCorrelationId } from '../observability-run.js';
import { fanoutEnvironment, withDeadline } from './fanout-environment.js';

/**
 * The state machine's first step: from the `requested.json` whose creation started the execution
 * (the EventBridge rule passes `{ bucket, requestKey }`) to the map's items.
 */
let ready: Promise<FanoutDeps & { bucket: string }> | undefined;

export async function handler(event: { bucket?: unknown; requestKey?: unknown }, context?: InvocationContext): Promise<FanoutPlan & { bucket: string }> {
  return observed(context, runCorrelationId(event), async () => {
    const deps = withDeadline(await (ready ??= fanoutEnvironment(process.env)), context);
    if (event.bucket !== deps.bucket || typeof event.requestKey !== 'string') {
      throw new GateError('bad_arguments', `expected { bucket: "${deps.bucket}", requestKey }, got ${JSON.stringify(event).slice(0, 300)}`);
    }
    const plan = await planRequested(deps, await requestKey(deps, event.requestKey));
    dropLogger(runKeys(deps.layout, plan.run)).info('fan-out planned', { files: plan.files, shards: plan.shards.length, skipToDecide: plan.skipToDecide });
    return { bucket: deps.bucket, ...plan };
  });
}

/** The key as the event has it, or URL-decoded as S3 event notifications encode keys. */
async function requestKey(deps: FanoutDeps, key: string): Promise<string> {
  if (await deps.store.head(key)) return key;
  return decodeS3Key(key) ?? key;
}
