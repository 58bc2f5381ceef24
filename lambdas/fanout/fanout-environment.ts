import type { FanoutDeps } from '../../lib/fanout/fanout-context.js';
import { fanOutDecider, inThreadDecider } from '../../lib/fanout/fan-out-decider.js';
import { deadlineStore } from '../../lib/gate/deadline-store.js';
import type { Decider } from '../../lib/gate/process-marker.js';
import { gateContracts, gateStore, lambdaDeadline, layoutFrom, positiveEnv, requiredEnv, type LambdaContext } from '../gate-environment.js';
import { logger } from '../observability.js';

/**
 * The ports every fan-out step needs, from the environment the deployment sets: GATE_BUCKET,
 * CONTRACTS_DIR (default: `contracts` beside the handler) and the prefix variables.
 */
export async function fanoutEnvironment(env: NodeJS.ProcessEnv): Promise<FanoutDeps & { bucket: string }> {
  const { bucket, store } = gateStore(env);
  return {
    bucket,
    store,
    contracts: await gateContracts(env, import.meta.dirname, store),
    layout: layoutFrom(env),
  };
}

/**
 * Stops between two storage calls before Lambda's deadline, for steps whose every call is a
 * record or a copy; the state machine's retry resumes them. Not for steps that read data files:
 * a format reader may take a failed read for a broken file.
 */
export function withDeadline<Deps extends FanoutDeps>(deps: Deps, context: LambdaContext | undefined): Deps {
  const deadline = lambdaDeadline(context);
  return deadline === undefined ? deps : { ...deps, store: deadlineStore(deps.store, deadline, Date.now) };
}

/**
 * The validate function's decider. With the fan-out deployed (GATE_FANOUT_MAX_FILES and
 * GATE_FANOUT_MAX_BYTES set), partitions past the limits, and those whose check runs past
 * GATE_FANOUT_CHECK_SECONDS, go to the state machine. Without it every partition is checked here,
 * and one that cannot finish is logged as bound for the dead-letter queue.
 */
export function fanoutDeciderFrom(env: NodeJS.ProcessEnv): Decider {
  if (env.GATE_FANOUT_MAX_FILES === undefined && env.GATE_FANOUT_MAX_BYTES === undefined) {
    return inThreadDecider((overrun) => logger.error('drop too big for one invocation, no fan-out: it will land in the dead-letter queue', { ...overrun }));
  }
  const limit = (name: string) => positiveEnv(env, name) ?? Number(requiredEnv(env, name));
  const checkSeconds = positiveEnv(env, 'GATE_FANOUT_CHECK_SECONDS');
  return fanOutDecider({
    layout: layoutFrom(env),
    limits: { maxFiles: limit('GATE_FANOUT_MAX_FILES'), maxBytes: limit('GATE_FANOUT_MAX_BYTES') },
    ...(checkSeconds === undefined ? {} : { checkMs: checkSeconds * 1000 }),
    onOverrun: (overrun) => logger.warn('drop handed to the fan-out: its check did not fit in one invocation', { ...overrun }),
  });
}
