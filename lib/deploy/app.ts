import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { loadContractDirectory } from '../storage/contract-directory.js';
import { ConfigError } from './config-fields.js';
import { addGateStack, selectedEnvironment } from './gate-app.js';
import { PROJECT_ROOT } from './gate-function.js';

try {
  const app = new App();
  // Bundled contracts load with the same loader as the functions' cold start, so an invalid one
  // fails the synth, not the gate. With the registry, `contracts/` is not deployed at all.
  const bundled = selectedEnvironment(app).contracts.source === 'bundled';
  const contracts = bundled ? (await loadContractDirectory(join(PROJECT_ROOT, 'contracts'))).all() : [];
  addGateStack(app, contracts);
  app.synth();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(`contract-gate: ${error.message}`);
  process.exitCode = 1;
}
