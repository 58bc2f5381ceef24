import { Stack, Token, TokenComparison, type IResource } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { ConfigError } from './config-fields.js';
import { NAME } from '../contract/native-contract.js';
import type { GateBucket } from './gate-bucket.js';
import { acknowledgeWildcardResources } from './nag-acknowledgements.js';

const DATASET_WILDCARD_REASON = 'Object ARNs under one dataset\'s prefix (<area>/<dataset>/*): partitions and files are named by the producer at run time; nothing of another dataset is granted.';

/**
 * Object actions under each key prefix of one dataset, a listing limited to them, and the
 * bucket key's kms:Decrypt (kms:GenerateDataKey too when it writes), as `bucket.grantRead` grants:
 * through `Grant.addToPrincipalOrResource`, so a grantee of another account is also allowed on
 * the bucket's and the key's own policies. An existing bucket or key keeps its owner's policy,
 * which this stack cannot change: for a grantee of another account that is an error saying what
 * the owner must add, not a grant that silently does nothing. The wildcard object ARNs are
 * acknowledged for cdk-nag on the grantee, each by its ARN.
 */
/**
 * Lets a producer (a CI role, a team's deploy user) register the contracts of one dataset:
 * read and write under `<registry prefix><name>/` (the version files and the pointers of every
 * major), and list there (a new major is checked against the earlier ones), nothing of other
 * datasets.
 */
export function grantPublishContract(gateBucket: GateBucket, grantee: IGrantable, dataset: string): Grant {
  requireDatasetName(dataset);
  return grantDataset(gateBucket, grantee, ['s3:GetObject', 's3:PutObject'], [`${gateBucket.requireRegistry('grantPublishContract')}${dataset}/`]);
}
/** A dataset name becomes part of an IAM resource: `*`, `?` or `/` would widen a grant to other datasets. */
export function requireDatasetName(dataset: string): void {
  if (!NAME.test(dataset)) throw new Error(`"${dataset}" is not a dataset name (lower case letters, digits, "_" or "-", starting with a letter)`);
}

export function grantDataset(gateBucket: GateBucket, grantee: IGrantable, actions: readonly string[], prefixes: readonly string[]): Grant {
  refuseUnreachable(gateBucket, grantee, actions, prefixes);
  const { bucket } = gateBucket;
  const objectArns = prefixes.map((p) => bucket.arnForObjects(`${p}*`));
  const objects = Grant.addToPrincipalOrResource({ grantee, actions: [...actions], resourceArns: objectArns, resource: bucket });
  const list = Grant.addToPrincipalOrResource({
    grantee,
    actions: ['s3:ListBucket'],
    resourceArns: [bucket.bucketArn],
    resource: bucket,
    conditions: { StringLike: { 's3:prefix': prefixes.map((p) => `${p}*`) } },
  });
  if (Construct.isConstruct(grantee.grantPrincipal)) acknowledgeWildcardResources(grantee.grantPrincipal, objectArns, DATASET_WILDCARD_REASON);
  const grant = objects.combine(list);
  const key = gateBucket.grantKey(grantee, actions.includes('s3:PutObject'));
  return key ? grant.combine(key) : grant;
}

/** An error when the grantee is of another account than a bucket or key whose policy this stack cannot change. */
function refuseUnreachable(gateBucket: GateBucket, grantee: IGrantable, actions: readonly string[], prefixes: readonly string[]): void {
  const account = grantee.grantPrincipal.principalAccount;
  // Unresolved accounts (an env-agnostic stack) cannot be compared: those grants go to the principal.
  const elsewhere = (resource: IResource) => account !== undefined && Token.compareStrings(resource.env.account, account) === TokenComparison.DIFFERENT;
  const { bucket, encryptionKey: key } = gateBucket;
  const stack = Stack.of(gateBucket);
  const show = (value: string) => (Token.isUnresolved(value) ? JSON.stringify(stack.resolve(value)) : value);
  const missing: string[] = [];
  if (elsewhere(bucket) && !(bucket instanceof Bucket)) {
    missing.push(`the bucket policy of ${show(bucket.bucketName)}: Allow ${actions.join(', ')} on ${prefixes.map((p) => `${p}*`).join(', ')}, and s3:ListBucket with s3:prefix ${prefixes.map((p) => `${p}*`).join(', ')}`);
  }
  if (key && elsewhere(key) && !(key instanceof Key)) {
    missing.push(`the key policy of ${show(key.keyArn)}: Allow kms:Decrypt${actions.includes('s3:PutObject') ? ', kms:GenerateDataKey' : ''}`);
  }
  if (missing.length === 0) return;
  const principal = JSON.stringify(stack.resolve(grantee.grantPrincipal.policyFragment.principalJson));
  throw new ConfigError([
    `the grantee ${principal} is in account ${account}, not the bucket's: its access must also be allowed by ${missing.length === 1 ? 'a policy' : 'policies'} this stack cannot change.`,
    ...missing.map((m) => `  Ask the owner to add, to ${m}.`),
    '  Or grant a role of the bucket\'s own account, which the grantee assumes.',
  ].join('\n'));
}
