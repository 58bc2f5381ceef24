import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';
import { flattenCfnReference } from './flatten-cfn-reference.js';

/**
 * Acknowledges cdk-nag's AwsSolutions-IAM5 finding for exactly these resource ARNs, nothing
 * broader: cdk-nag 3 names each wildcard finding by the flattened ARN (`<Bucket.Arn>/staging/*`),
 * so a wildcard added later anywhere else still fails the synth. Plain CDK acknowledgements,
 * which cdk-nag 3 reads: no cdk-nag import, so the constructs load without it.
 */
export function acknowledgeWildcardResources(scope: IConstruct, arns: readonly string[], reason: string): void {
  const stack = Stack.of(scope);
  const ids = new Set(arns.map((arn) => `AwsSolutions-IAM5[Resource::${flattenCfnReference(stack.resolve(arn))}]`));
  Validations.of(scope).acknowledge(...[...ids].map((id) => ({ id, reason })));
}

/** Acknowledges cdk-nag's AwsSolutions-IAM5 finding for one wildcard action. */
export function acknowledgeWildcardAction(scope: IConstruct, action: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-IAM5[Action::${action}]`, reason });
}
