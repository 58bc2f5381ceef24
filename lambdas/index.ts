/**
 * `contract-gate/lambda`: the gate's handlers, for a platform that wires its own functions. Each
 * reads its settings from the environment as README.md ("The gate") says. The constructs deploy
 * the prebuilt bundles of these (dist/bundles/), not this module.
 */
export { handler as validateHandler, checkThreads } from './validate/handler.js';
export { handler as probeHandler } from './probe/handler.js';
export { handler as reconcileHandler } from './reconcile/handler.js';
export { handler as fanoutPlanHandler } from './fanout/plan.js';
export { handler as fanoutMapFileHandler } from './fanout/map-file.js';
export { handler as fanoutReduceShardHandler } from './fanout/reduce-shard.js';
export { handler as fanoutDecideHandler } from './fanout/decide.js';
export type { LambdaContext } from './gate-environment.js';
