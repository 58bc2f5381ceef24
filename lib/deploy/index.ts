/**
 * `contract-gate/cdk`: the gate as constructs for one's own CDK app. `new ContractGate(stack,
 * 'Gate', {})` deploys a working gate on a new bucket; its functions deploy the Lambda code
 * prebuilt in this package (dist/bundles/), so a synth needs no esbuild. cdk-nag is opt-in:
 * `await addAwsSolutionsChecks(app)` with cdk-nag 3 installed.
 */
export { ContractGate, type ContractGateProps } from './contract-gate.js';
export { GateStack, type GateStackProps } from './gate-stack.js';
export { environmentGateProps } from './environment-props.js';
export { environmentConfig, type BucketSource, type ContractsConfig, type EnvironmentConfig, type FanoutConfig, type GatePrefixes } from './environment-config.js';
export { ConfigError } from './config-fields.js';
export { GateFunction, type GateFunctionProps } from './gate-function.js';
export { addAwsSolutionsChecks } from './nag-checks.js';
export { acknowledgeWildcardAction, acknowledgeWildcardResources } from './nag-acknowledgements.js';
export { GateMetrics, METRICS_NAMESPACE, METRICS_SERVICE, type GateMetricName, type GateMetricOptions } from './gate-metrics.js';
