import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { ConfigError } from './config-fields.js';
import { addGateStack } from './gate-app.js';
import { PROJECT_ROOT } from './gate-function.js';

try {
  // The same loader as the functions' cold start: an invalid contract fails the synth, not the gate.
  const contracts = await loadContractDirectory(join(PROJECT_ROOT, 'contracts'));
  const app = new App();
  addGateStack(app, contracts.all());
  app.synth();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`contract-gate: ${error.message}`);
  process.exitCode = 1;
}
