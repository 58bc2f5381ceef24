import { parseFanoutItem, parseFanoutRun } from '../../lib/fanout/fanout-layout.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { mapFile, type MapFileOutcome } from '../../lib/fanout/map-file.js';
import { dropLogger, observed, type InvocationContext } from '../observability.js';
import { runKeys } from '../observability-drops.js';
import { runCorrelationId } from '../observability-run.js';
import { fanoutEnvironment } from './fanout-environment.js';

/** One item of the Distributed Map: `{ run, item }`, one staged file checked. */
let ready: Promise<FanoutDeps> | undefined;

export async function handler(event: { run?: unknown; item?: unknown }, context?: InvocationContext): Promise<MapFileOutcome> {
  return observed(context, runCorrelationId(event), async () => {
    const deps = await (ready ??= fanoutEnvironment(process.env));
    const run = parseFanoutRun(event.run);
    const item = parseFanoutItem(event.item);
    const outcome = await mapFile(deps, run, item);
    dropLogger({ ...runKeys(deps.layout, run), file: item.key }).info('file checked', { ...outcome });
    return outcome;
  });
}
