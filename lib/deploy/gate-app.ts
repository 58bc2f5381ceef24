import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Contract } from '../contract/model.js';
import { environmentConfig, type EnvironmentConfig } from './environment-config.js';
import { GateStack } from './gate-stack.js';

/** The configuration of the environment the `env` context names (`-c env=prod`), from cdk.json. */
export function selectedEnvironment(app: App): EnvironmentConfig {
  return environmentConfig(app.node.tryGetContext('environments'), app.node.tryGetContext('env'));
}

/**
 * Adds the stack of the environment named by the `env` context to `app`, with cdk-nag's AWS
 * Solutions checks: an unacknowledged finding fails the synth. `contracts` are the bundled ones;
 * an environment reading the registry ships none.
 */
export function addGateStack(app: App, contracts: readonly Contract[]): GateStack {
  const config = selectedEnvironment(app);
  const stack = new GateStack(app, `ContractGate-${config.name}`, {
    environment: config,
    bundledContracts: contracts,
    description: `contract-gate (${config.name}): validates dropped partitions against their data contracts, then publishes or quarantines them`,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
