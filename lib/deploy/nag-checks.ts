import { Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/**
 * Opt-in cdk-nag AWS Solutions checks on `scope` (an App or a Stage): an unacknowledged finding
 * fails the synth. cdk-nag is an optional peer dependency, loaded only here, so the constructs
 * work without it; the gate's own findings are already acknowledged, each with its reason.
 */
export async function addAwsSolutionsChecks(scope: IConstruct): Promise<void> {
  let nag: typeof import('cdk-nag');
  try {
    nag = await import('cdk-nag');
  } catch (error) {
    throw new Error('contract-gate: addAwsSolutionsChecks needs cdk-nag 3 beside aws-cdk-lib (npm install --save-dev cdk-nag@3)', { cause: error });
  }
  Validations.of(scope).addPlugins(new nag.AwsSolutionsChecks(scope));
}
