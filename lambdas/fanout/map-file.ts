import { parseFanoutItem, parseFanoutRun } from '../../lib/fanout/fanout-layout.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { mapFile, type MapFileOutcome } from '../../lib/fanout/map-file.js';
import { logJson } from '../log-json.js';
import { fanoutEnvironment } from './fanout-environment.js';

/** One item of the Distributed Map: `{ run, item }`, one staged file checked. */
let ready: Promise<FanoutDeps> | undefined;

export async function handler(event: { run?: unknown; item?: unknown }): Promise<MapFileOutcome> {
  const deps = await (ready ??= fanoutEnvironment(process.env));
  const outcome = await mapFile(deps, parseFanoutRun(event.run), parseFanoutItem(event.item));
  logJson('info', 'file checked', outcome);
  return outcome;
}
