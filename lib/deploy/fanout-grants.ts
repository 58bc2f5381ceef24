import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { GateBucket } from './gate-bucket.js';
import { acknowledgeWildcardResources } from './nag-acknowledgements.js';

/** The parts of the bucket a fan-out step touches: finer than GateBucket's areas, within `_gate/`. */
export type FanoutArea = 'staging' | 'runs' | 'decisions';

export interface StepAccess {
  readonly get: readonly FanoutArea[];
  readonly put: readonly FanoutArea[];
  /** s3:ListBucket on these prefixes; also what makes S3 answer a missing key with 404, not 403. */
  readonly list: readonly FanoutArea[];
}

/** The plan step: reads the request and the drop, checks for a decision, writes the items. */
export const PLAN_ACCESS: StepAccess = { get: ['runs', 'decisions', 'staging'], put: ['runs'], list: ['runs', 'decisions', 'staging'] };
/** A map item: reads one staged file, writes its result and key parts. */
export const MAP_ACCESS: StepAccess = { get: ['staging', 'decisions'], put: ['runs'], list: ['decisions', 'staging'] };
/** A shard: reads the parts and the items, re-reads candidate rows, writes its result. */
export const REDUCE_ACCESS: StepAccess = { get: ['runs', 'decisions', 'staging'], put: ['runs'], list: ['runs', 'decisions', 'staging'] };

export function fanoutPrefix(gateBucket: GateBucket, area: FanoutArea): string {
  const { staging, state } = gateBucket.prefixes;
  return area === 'staging' ? staging : `${state}${area}/`;
}

/**
 * Grants a fan-out step its prefix-scoped S3 access and sets the environment its handler reads
 * (lambdas/fanout/fanout-environment.ts). None of them deletes anything: only the decide step,
 * granted as the validate function is, moves data.
 */
export function grantFanoutStep(gateBucket: GateBucket, fn: LambdaFunction, access: StepAccess): void {
  const { bucket, prefixes, marker } = gateBucket;
  const objects = (areas: readonly FanoutArea[]) => areas.map((area) => bucket.arnForObjects(`${fanoutPrefix(gateBucket, area)}*`));
  fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: objects(access.get) }));
  fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: objects(access.put) }));
  gateBucket.grantKey(fn, access.put.length > 0);
  fn.addToRolePolicy(new PolicyStatement({
    actions: ['s3:ListBucket'],
    resources: [bucket.bucketArn],
    conditions: { StringLike: { 's3:prefix': access.list.map((area) => `${fanoutPrefix(gateBucket, area)}*`) } },
  }));
  acknowledgeWildcardResources(
    fn.role ?? fn,
    objects([...access.get, ...access.put]),
    'Object ARNs scoped to one prefix each (staging/*, _gate/runs/*, _gate/decisions/*): partitions and run tags are named at run time, so the keys below the prefix cannot be listed in advance.',
  );
  fn.addEnvironment('GATE_BUCKET', bucket.bucketName);
  fn.addEnvironment('GATE_STAGING_PREFIX', prefixes.staging);
  fn.addEnvironment('GATE_PUBLISHED_PREFIX', prefixes.published);
  fn.addEnvironment('GATE_QUARANTINE_PREFIX', prefixes.quarantine);
  fn.addEnvironment('GATE_STATE_PREFIX', prefixes.state);
  fn.addEnvironment('GATE_MARKER', marker);
}
