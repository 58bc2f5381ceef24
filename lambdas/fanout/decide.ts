import { decideFanout } from '../../lib/fanout/decide-fanout.js';
import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { parseFanoutRun } from '../../lib/fanout/fanout-layout.js';
import type { Notifier } from '../../lib/notify/notifier.js';
import { snsNotifier } from '../../lib/notify/sns-notifier.js';
import { requiredEnv } from '../gate-environment.js';
import { observed, type InvocationContext } from '../observability.js';
import { describeOutcome, reportDrop, runKeys } from '../observability-drops.js';
import { runCorrelationId } from '../observability-run.js';
import { invocationTally } from '../observability-tally.js';
import { fanoutEnvironment, withDeadline } from './fanout-environment.js';

/**
 * The last step: `{ run }` merged into one report, decided, carried out and notified, through the
 * same protocol as the validate function. Needs GATE_TOPIC_ARN besides the fan-out environment.
 * The drop's metrics are published by the step that carried its decision out; its
 * ValidationSeconds is the whole distributed run's, from the run's request to this verdict.
 */
let ready: Promise<FanoutDeps & { notifier: Notifier }> | undefined;

export async function handler(event: { run?: unknown }, context?: InvocationContext): Promise<{ status: string; attempt?: string; summary?: string }> {
  return observed(context, runCorrelationId(event), async () => {
    const deps = withDeadline(await (ready ??= configure(process.env)), context);
    const run = parseFanoutRun(event.run);
    const tally = invocationTally();
    const outcome = await decideFanout({ ...deps, notifier: tally.notifier(deps.notifier), clock: Date.now }, run);
    const runSeconds = Math.max(0, (Date.now() - run.now) / 1000);
    reportDrop(outcome, { keys: runKeys(deps.layout, run), observe: (decision) => ({ ...tally.observe(decision), validationSeconds: runSeconds }), message: 'fan-out decided' });
    return describeOutcome(outcome);
  });
}

async function configure(env: NodeJS.ProcessEnv): Promise<FanoutDeps & { notifier: Notifier }> {
  return { ...(await fanoutEnvironment(env)), notifier: snsNotifier({ topicArn: requiredEnv(env, 'GATE_TOPIC_ARN') }) };
}
