import { flattenCfnReference } from '../../lib/deploy/flatten-cfn-reference.js';

/** A policy statement as a reader checks it: tokens flattened as cdk-nag writes them (`<Bucket.Arn>/staging/*`). */
export interface StatementView {
  readonly effect: 'Allow' | 'Deny';
  readonly actions: readonly string[];
  readonly resources: readonly string[];
  readonly condition?: Record<string, Record<string, unknown>>;
  /** The logical ID of the policy (or role) the statement is in. */
  readonly source: string;
}

type Resources = Record<string, { readonly Type: string; readonly Properties?: Record<string, unknown> }>;
type RawStatement = { Effect: 'Allow' | 'Deny'; Action?: unknown; Resource?: unknown; Condition?: Record<string, Record<string, unknown>> };

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : value === undefined ? [] : [value]);

/**
 * Every identity-policy statement a template gives the role `roleLogicalId`: its inline
 * policies and the policies (CDK's DefaultPolicy among them) and managed policies attached to it.
 */
export function roleStatements(template: { readonly Resources?: Resources }, roleLogicalId: string): StatementView[] {
  const resources = template.Resources ?? {};
  if (resources[roleLogicalId]?.Type !== 'AWS::IAM::Role') throw new Error(`no AWS::IAM::Role ${roleLogicalId} in the template (roles: ${Object.keys(resources).filter((id) => resources[id]!.Type === 'AWS::IAM::Role').join(', ')})`);
  const documents: { source: string; document: unknown }[] = [];
  for (const policy of (resources[roleLogicalId]!.Properties?.Policies as { PolicyDocument: unknown }[] | undefined) ?? []) documents.push({ source: roleLogicalId, document: policy.PolicyDocument });
  for (const [id, resource] of Object.entries(resources)) {
    if (resource.Type !== 'AWS::IAM::Policy' && resource.Type !== 'AWS::IAM::ManagedPolicy') continue;
    const attached = list(resource.Properties?.Roles).some((role) => (role as { Ref?: string }).Ref === roleLogicalId);
    if (attached) documents.push({ source: id, document: resource.Properties?.PolicyDocument });
  }
  return documents.flatMap(({ source, document }) => list((document as { Statement?: unknown }).Statement).map((s) => view(s as RawStatement, source)));
}

function view(statement: RawStatement, source: string): StatementView {
  return {
    effect: statement.Effect,
    actions: list(statement.Action).map(String),
    resources: list(statement.Resource).map(flattenCfnReference),
    ...(statement.Condition ? { condition: statement.Condition } : {}),
    source,
  };
}

/** IAM's wildcards (`*`, `?`) in an action or ARN pattern; actions compare case-insensitively. */
function matches(pattern: string, value: string, ignoreCase: boolean): boolean {
  const regex = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${regex}$`, ignoreCase ? 'i' : '').test(value);
}

/** Whether an Allow statement grants `action` on `resource` (no Deny is evaluated: the gate writes none). */
export function allows(statements: readonly StatementView[], action: string, resource: string): boolean {
  return statements.some((s) => s.effect === 'Allow' && s.actions.some((a) => matches(a, action, true)) && s.resources.some((r) => matches(r, resource, false)));
}

/**
 * What each allowed action reaches in the bucket, as key prefixes: object ARNs `<bucket>/<prefix>*`
 * give `<prefix>`; `s3:ListBucket` on the bucket gives its `s3:prefix` condition's values, or `*`
 * when unconditioned (the whole bucket). `bucketArn` as the statements hold it, flattened.
 */
export function bucketPrefixes(statements: readonly StatementView[], bucketArn: string): Record<string, string[]> {
  const found: Record<string, Set<string>> = {};
  const add = (actions: readonly string[], prefix: string) => {
    for (const action of actions) (found[action] ??= new Set()).add(prefix);
  };
  for (const s of statements.filter((s) => s.effect === 'Allow')) {
    for (const resource of s.resources) {
      if (resource.startsWith(`${bucketArn}/`)) add(s.actions, resource.slice(bucketArn.length + 1).replace(/\*$/, ''));
      if (resource === bucketArn) {
        const prefixes = Object.values(s.condition ?? {}).flatMap((c) => list(c['s3:prefix']).map((p) => String(p).replace(/\*$/, '')));
        for (const prefix of prefixes.length > 0 ? prefixes : ['*']) add(s.actions, prefix);
      }
    }
  }
  return Object.fromEntries(Object.entries(found).map(([action, prefixes]) => [action, [...prefixes].sort()]).sort(([a], [b]) => String(a).localeCompare(String(b))));
}
