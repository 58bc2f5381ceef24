import { GateError } from '../../lib/errors.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { parseFanoutRun } from '../../lib/fanout/fanout-layout.js';
import { reduceShard, type ReduceOutcome } from '../../lib/fanout/reduce-shard.js';
import { dropLogger, observed, type InvocationContext } from '../observability.js';
import { runKeys } from '../observability-drops.js';
import { runCorrelationId } from '../observability-run.js';
import { fanoutEnvironment } from './fanout-environment.js';

/** One item of the reduce Map: `{ run, shard: { keySet, shard } }`, one shard's duplicates confirmed. */
let ready: Promise<FanoutDeps> | undefined;

export async function handler(event: { run?: unknown; shard?: { keySet?: unknown; shard?: unknown } }, context?: InvocationContext): Promise<ReduceOutcome> {
  return observed(context, runCorrelationId(event), async () => {
    const deps = await (ready ??= fanoutEnvironment(process.env));
    const { keySet, shard } = event.shard ?? {};
    if (!Number.isInteger(keySet) || !Number.isInteger(shard)) throw new GateError('bad_arguments', `expected shard: { keySet, shard }, got ${JSON.stringify(event.shard)}`);
    const run = parseFanoutRun(event.run);
    const outcome = await reduceShard(deps, run, keySet as number, shard as number);
    dropLogger(runKeys(deps.layout, run)).info('shard reduced', { ...outcome });
    return outcome;
  });
}
