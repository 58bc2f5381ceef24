import { Validations, type App } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Contract } from '../contract/model.js';
import { environmentConfig } from './environment-config.js';
import { GateStack } from './gate-stack.js';

/**
 * Adds the stack of the environment named by the `env` context (`-c env=prod`) to `app`, with
 * cdk-nag's AWS Solutions checks: an unacknowledged finding fails the synth.
 */
export function addGateStack(app: App, contracts: readonly Contract[]): GateStack {
  const config = environmentConfig(app.node.tryGetContext('environments'), app.node.tryGetContext('env'));
  const stack = new GateStack(app, `ContractGate-${config.name}`, {
    config,
    contracts,
    description: `contract-gate (${config.name}): validates dropped partitions against their data contracts, then publishes or quarantines them`,
  });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return stack;
}
