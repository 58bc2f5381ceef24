import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SUBSCRIPTION_STATE_FILE } from '../subscriptions/subscription-state.js';
import type { GateBucket } from './gate-bucket.js';
import { acknowledgeWildcardResources } from './nag-acknowledgements.js';

const REGISTRY_WILDCARD_REASON = 'Object ARN scoped to the contract registry prefix (_contracts/*): the gate reads every registered contract, and datasets are registered by producers at run time.';

/**
 * A function that reads contracts from the registry (validate, probe, fan-out): reads and lists
 * the registry prefix, and is told where it is and how often to look again
 * (GATE_CONTRACTS_SOURCE, GATE_REGISTRY_PREFIX, GATE_CONTRACTS_REFRESH_SECONDS).
 */
export function grantReadRegistry(gateBucket: GateBucket, fn: LambdaFunction, refreshSeconds: number): void {
  const prefix = gateBucket.requireRegistry(fn.node.path);
  addRegistryRead(gateBucket, fn, prefix, []);
  fn.addEnvironment('GATE_CONTRACTS_SOURCE', 'registry');
  fn.addEnvironment('GATE_REGISTRY_PREFIX', prefix);
  fn.addEnvironment('GATE_CONTRACTS_REFRESH_SECONDS', String(refreshSeconds));
}

/**
 * The reconcile function: reads the registry and its own record of the subscriptions it made,
 * `<state prefix>subscriptions.json`, the one object it writes.
 */
export function grantReconcile(gateBucket: GateBucket, fn: LambdaFunction): void {
  const prefix = gateBucket.requireRegistry(fn.node.path);
  const stateKey = `${gateBucket.prefixes.state}${SUBSCRIPTION_STATE_FILE}`;
  const state = gateBucket.bucket.arnForObjects(stateKey);
  addRegistryRead(gateBucket, fn, prefix, [stateKey]);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: [state] }));
  gateBucket.grantKey(fn, true);
  fn.addEnvironment('GATE_BUCKET', gateBucket.bucket.bucketName);
  fn.addEnvironment('GATE_REGISTRY_PREFIX', prefix);
  fn.addEnvironment('GATE_STATE_PREFIX', gateBucket.prefixes.state);
}

function addRegistryRead(gateBucket: GateBucket, fn: LambdaFunction, prefix: string, alsoKeys: readonly string[]): void {
  const { bucket } = gateBucket;
  const registry = bucket.arnForObjects(`${prefix}*`);
  fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [registry] }));
  // As for the gate's areas: also what makes S3 answer a missing key with 404 rather than 403.
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['s3:ListBucket'],
    resources: [bucket.bucketArn],
    conditions: { StringLike: { 's3:prefix': [`${prefix}*`, ...alsoKeys] } },
  }));
  acknowledgeWildcardResources(fn.role ?? fn, [registry], REGISTRY_WILDCARD_REASON);
}
