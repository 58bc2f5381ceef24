import { decideFanout } from '../../lib/fanout/decide-fanout.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { parseFanoutRun } from '../../lib/fanout/fanout-layout.js';
import type { Notifier } from '../../lib/notify/notifier.js';
import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { requiredEnv, type LambdaContext } from '../gate-environment.js';
import { describeOutcome, logJson } from '../log-json.js';
import { fanoutEnvironment, withDeadline } from './fanout-environment.js';

/**
 * The last step: `{ run }` merged into one report, decided, carried out and notified, through the
 * same protocol as the validate function. Needs GATE_TOPIC_ARN besides the fan-out environment.
 */
let ready: Promise<FanoutDeps & { notifier: Notifier }> | undefined;

export async function handler(event: { run?: unknown }, context?: LambdaContext): Promise<{ status: string; attempt?: string; summary?: string }> {
  const deps = withDeadline(await (ready ??= configure(process.env)), context);
  const outcome = await decideFanout({ ...deps, clock: Date.now }, parseFanoutRun(event.run));
  const described = describeOutcome(outcome);
  logJson('info', 'fan-out decided', described);
  return described;
}

async function configure(env: NodeJS.ProcessEnv): Promise<FanoutDeps & { notifier: Notifier }> {
  return { ...(await fanoutEnvironment(env)), notifier: snsNotifier({ topicArn: requiredEnv(env, 'GATE_TOPIC_ARN') }) };
}
