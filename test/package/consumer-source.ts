/**
 * What a platform team writes against the package: the API and the construct, typed from the
 * package's own declarations. Type-checked in the scratch app with no @types/node (only the
 * package, aws-cdk-lib and constructs are installed), then compiled and run by run.mjs.
 */
export const CONSUMER_TS = `import { App, Stack } from 'aws-cdk-lib';
import { ContractGate, type ContractGateProps } from 'contract-gate/cdk';
import { buildCheckPlan, diffContracts, loadContractFile, validateLocalPartition, type ContractDiff, type Report } from 'contract-gate';
import type { validateHandler } from 'contract-gate/lambda';

export type Handler = typeof validateHandler;

export async function validateExample(contractPath: string, partition: string, now: number): Promise<{ report: Report; checks: number; diff: ContractDiff }> {
  const { contract, problems } = await loadContractFile(contractPath);
  if (!contract) throw new Error(problems.map((p) => p.message).join('; '));
  const report: Report = await validateLocalPartition(contract, [partition], { now, workers: 1 });
  return { report, checks: buildCheckPlan(contract, now).columns.length, diff: diffContracts(contract, contract) };
}

export function synthGate(outdir: string): { functions: { id: string; code: string }[]; resources: number } {
  const app = new App({ outdir });
  const stack = new Stack(app, 'DataLake');
  const props: ContractGateProps = {};
  new ContractGate(stack, 'Gate', props);
  const assembly = app.synth();
  const template = assembly.getStackByName('DataLake').template as { Resources: Record<string, { Type: string; Properties: { Code?: { S3Key?: string } } }> };
  // The gate's own functions, from assets (CDK's bucket-notifications helper is inline code).
  const functions = Object.entries(template.Resources)
    .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.Code?.S3Key !== undefined)
    .map(([id, resource]) => ({ id, code: 'asset.' + resource.Properties.Code!.S3Key!.replace(/\\.zip$/, '') }));
  return { functions, resources: Object.keys(template.Resources).length };
}
`;


/** Plays the app's entry: argv in, one JSON line out, as a user's own script would. */
export const RUN_MJS = `import { validateExample, synthGate } from './out/consumer.js';
const [contract, partition, now, outdir] = process.argv.slice(2);
const validated = await validateExample(contract, partition, Date.parse(now));
const synth = synthGate(outdir);
console.log(JSON.stringify({ status: validated.report.status, rows: validated.report.rows, violations: validated.report.violations.length, checks: validated.checks, diff: validated.diff.changes.length, ...synth }));
`;
