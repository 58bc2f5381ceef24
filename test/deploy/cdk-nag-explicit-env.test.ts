import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { environmentConfig } from '../../lib/deploy/environment-config.js';
import { GateStack } from '../../lib/deploy/gate-stack.js';
import { acknowledgements, nagFindings } from './nag-findings.js';
import { repositoryContracts } from './synth-gate.js';

// A company's app names its account and region: the ARNs CDK grants are then concrete, where
// an app without an env gets the pseudo parameters. The acknowledgements must follow either way.
const ENV = { account: '111111111111', region: 'eu-west-1' };
const outdirs: string[] = [];
const synths = new Map<string, Promise<{ app: App; stack: GateStack }>>();
afterAll(() => {
  for (const dir of outdirs) rmSync(dir, { recursive: true, force: true });
});

/** Each gate synthesized once, whichever test asks first. */
function gateInEnv(source: 'registry' | 'bundled'): Promise<{ app: App; stack: GateStack }> {
  if (!synths.has(source)) synths.set(source, synthInEnv(source));
  return synths.get(source)!;
}

/** A GateStack in an explicit env, the fan-out on, cdk-nag registered as the gate app registers it. */
async function synthInEnv(source: 'registry' | 'bundled'): Promise<{ app: App; stack: GateStack }> {
  const outdir = mkdtempSync(join(tmpdir(), 'contract-gate-env-'));
  outdirs.push(outdir);
  const app = new App({ outdir });
  const environment = environmentConfig({ [source]: { contracts: { source }, fanout: { enabled: true } } }, source);
  const bundledContracts = source === 'bundled' ? await repositoryContracts() : [];
  const stack = new GateStack(app, `Gate-${source}`, { env: ENV, environment, ...(source === 'bundled' ? { bundledContracts } : {}) });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // An unacknowledged error finding fails this synth.
  app.synth();
  return { app, stack };
}

describe('cdk-nag AwsSolutions in a stack with an explicit account and region', () => {
  it.each(['registry', 'bundled'] as const)('finds nothing unacknowledged in a gate with the fan-out and %s contracts', async (source) => {
    const { stack } = await gateInEnv(source);
    expect(nagFindings(stack)).toEqual([]);
  });

  it('acknowledges the Distributed Map\'s child executions by the concrete ARN the policy holds, and only those', async () => {
    const { app } = await gateInEnv('registry');
    const executions = acknowledgements(app).filter((a) => a.id.includes(':execution:')).map((a) => a.id.replace(/\{"Fn::Select".*\}\]\}\]\}/, '<name>'));
    expect(executions.sort()).toEqual([
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:eu-west-1:111111111111:execution:<name>/CheckFiles:*]',
      'AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:states:eu-west-1:111111111111:execution:<name>:*]',
    ]);
  });
});
