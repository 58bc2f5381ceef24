import type { AssemblyStack } from './assembly-stacks.js';

/** Where a kind of name must be unique: per account and region, per account, or in all of AWS. */
type NameScope = 'region' | 'account' | 'global';

/**
 * The properties that give a resource a physical name, and where that name must be unique.
 * `within` names the property that partitions the namespace (a rule's event bus); `namespace`
 * joins types that share one (an alarm and a composite alarm cannot share a name).
 */
const NAMED: Record<string, { readonly property: string; readonly scope: NameScope; readonly within?: string; readonly namespace?: string }> = {
  'AWS::Lambda::Function': { property: 'FunctionName', scope: 'region' },
  'AWS::SQS::Queue': { property: 'QueueName', scope: 'region' },
  'AWS::SNS::Topic': { property: 'TopicName', scope: 'region' },
  'AWS::KMS::Alias': { property: 'AliasName', scope: 'region' },
  'AWS::Events::Rule': { property: 'Name', scope: 'region', within: 'EventBusName' },
  'AWS::Events::EventBus': { property: 'Name', scope: 'region' },
  'AWS::Scheduler::Schedule': { property: 'Name', scope: 'region', within: 'GroupName' },
  'AWS::StepFunctions::StateMachine': { property: 'StateMachineName', scope: 'region' },
  'AWS::Logs::LogGroup': { property: 'LogGroupName', scope: 'region' },
  'AWS::CloudWatch::Alarm': { property: 'AlarmName', scope: 'region' },
  'AWS::CloudWatch::CompositeAlarm': { property: 'AlarmName', scope: 'region', namespace: 'AWS::CloudWatch::Alarm' },
  // Dashboards are global to the account, whatever region they are created from.
  'AWS::CloudWatch::Dashboard': { property: 'DashboardName', scope: 'account' },
  'AWS::SSM::Parameter': { property: 'Name', scope: 'region' },
  'AWS::DynamoDB::Table': { property: 'TableName', scope: 'region' },
  'AWS::SecretsManager::Secret': { property: 'Name', scope: 'region' },
  'AWS::IAM::Role': { property: 'RoleName', scope: 'account' },
  'AWS::IAM::ManagedPolicy': { property: 'ManagedPolicyName', scope: 'account' },
  'AWS::IAM::InstanceProfile': { property: 'InstanceProfileName', scope: 'account' },
  'AWS::S3::Bucket': { property: 'BucketName', scope: 'global' },
};

/** A physical name a template gives a resource, with where it must be unique. */
export interface PhysicalName {
  readonly namespace: string;
  /** `aws://<account>/<region>`, `aws://<account>` or `aws` (unknown-account/unknown-region for an env-agnostic stack). */
  readonly scope: string;
  readonly name: string;
  /** `<stack artifact>/<logical ID>`. */
  readonly resource: string;
}

/** The same name given twice or more in one scope: CloudFormation fails the second to create. */
export interface DuplicateName {
  readonly namespace: string;
  readonly scope: string;
  readonly name: string;
  readonly resources: readonly string[];
}

/**
 * Every physical name the stacks' templates set. A name built from tokens is rendered with the
 * stack's own values (stack name, account, region); a reference to a resource stays a
 * reference of that stack, so it never equals another stack's.
 */
export function physicalNames(stacks: readonly AssemblyStack[]): PhysicalName[] {
  return stacks.flatMap((stack) =>
    Object.entries(stack.template.Resources ?? {}).flatMap(([logicalId, resource]): PhysicalName[] => {
      const named = NAMED[resource.Type];
      const value = named && resource.Properties?.[named.property];
      if (!named || value === undefined) return [];
      const within = named.within ? `${renderName(resource.Properties?.[named.within] ?? 'default', stack)}/` : '';
      return [{ namespace: named.namespace ?? resource.Type, scope: scopeOf(named.scope, stack), name: within + renderName(value, stack), resource: `${stack.id}/${logicalId}` }];
    }),
  );
}

/** The names given more than once in the same scope, across all the stacks given. */
export function duplicatePhysicalNames(stacks: readonly AssemblyStack[]): DuplicateName[] {
  const groups = new Map<string, PhysicalName[]>();
  for (const name of physicalNames(stacks)) {
    const key = JSON.stringify([name.namespace, name.scope, name.name]);
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  return [...groups.values()].filter((g) => g.length > 1).map((g) => ({ namespace: g[0]!.namespace, scope: g[0]!.scope, name: g[0]!.name, resources: g.map((n) => n.resource) }));
}

function scopeOf(scope: NameScope, stack: AssemblyStack): string {
  const account = stack.account ?? 'unknown-account';
  if (scope === 'global') return 'aws';
  return scope === 'account' ? `aws://${account}` : `aws://${account}/${stack.region ?? 'unknown-region'}`;
}

const PSEUDO: Record<string, (stack: AssemblyStack) => string> = {
  'AWS::StackName': (stack) => stack.stackName,
  'AWS::AccountId': (stack) => stack.account ?? '<AWS::AccountId>',
  'AWS::Region': (stack) => stack.region ?? '<AWS::Region>',
  'AWS::Partition': () => 'aws',
  'AWS::URLSuffix': () => 'amazonaws.com',
};

/** A name as deployed, as far as the template tells: tokens of a resource stay `<stack/ID>`. */
function renderName(value: unknown, stack: AssemblyStack): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, unknown>;
  if (typeof node.Ref === 'string') return PSEUDO[node.Ref]?.(stack) ?? `<${stack.id}/${node.Ref}>`;
  if (node['Fn::Join']) {
    const [delimiter, parts] = node['Fn::Join'] as [string, unknown[]];
    return parts.map((part) => renderName(part, stack)).join(delimiter);
  }
  if (node['Fn::Sub'] !== undefined) {
    const [text, variables = {}] = (Array.isArray(node['Fn::Sub']) ? node['Fn::Sub'] : [node['Fn::Sub']]) as [string, Record<string, unknown>?];
    return text.replace(/\$\{([^}!]+)\}/g, (_, name: string) => (name in variables ? renderName(variables[name], stack) : renderName(name.includes('.') ? { 'Fn::GetAtt': name.split('.') } : { Ref: name }, stack)));
  }
  if (node['Fn::GetAtt']) return `<${stack.id}/${(node['Fn::GetAtt'] as string[]).join('.')}>`;
  return `<${stack.id}:${JSON.stringify(value)}>`;
}
