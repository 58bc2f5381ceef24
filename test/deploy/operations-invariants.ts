import type { Template } from 'aws-cdk-lib/assertions';

/**
 * What operations needs of any template the gate is in, read from the template itself, so a
 * rule, alarm or dead-letter queue added later is checked without naming it here.
 */
type Resources = Record<string, { Type: string; Properties?: Record<string, unknown> }>;

const resourcesOf = (template: Template): Resources => template.toJSON().Resources as Resources;

function ofType(template: Template, type: string): [string, Record<string, unknown>][] {
  return Object.entries(resourcesOf(template)).filter(([, r]) => r.Type === type).map(([id, r]) => [id, r.Properties ?? {}]);
}

/** `Fn::GetAtt [id, Arn]` or `Ref id` as the logical ID it names. */
function logicalIdOf(value: unknown): string | undefined {
  const v = value as { 'Fn::GetAtt'?: [string, string]; Ref?: string } | undefined;
  return v?.['Fn::GetAtt']?.[0] ?? v?.Ref;
}

/** Every target of every EventBridge rule: `rule/target` and the target's settings. */
export function ruleTargets(template: Template): { name: string; target: Record<string, unknown> }[] {
  return ofType(template, 'AWS::Events::Rule').flatMap(([id, props]) =>
    ((props.Targets as Record<string, unknown>[] | undefined) ?? []).map((target) => ({ name: `${id}/${String(target.Id)}`, target })));
}

/** The logical IDs of the queues events go to when they cannot be delivered: target DLQs and Lambda on-failure destinations. */
export function eventDeadLetterQueues(template: Template): string[] {
  const targets = ruleTargets(template).map(({ target }) => logicalIdOf((target.DeadLetterConfig as { Arn?: unknown } | undefined)?.Arn));
  const destinations = ofType(template, 'AWS::Lambda::EventInvokeConfig').map(([, p]) => logicalIdOf((p.DestinationConfig as { OnFailure?: { Destination?: unknown } } | undefined)?.OnFailure?.Destination));
  return [...new Set([...targets, ...destinations].filter((id): id is string => id !== undefined))].sort();
}

/** The queues an alarm watches for visible messages. */
export function queuesWithVisibleMessageAlarms(template: Template): string[] {
  return ofType(template, 'AWS::CloudWatch::Alarm')
    .filter(([, p]) => p.MetricName === 'ApproximateNumberOfMessagesVisible' && p.Namespace === 'AWS/SQS')
    .flatMap(([, p]) => (p.Dimensions as { Name: string; Value: unknown }[]).filter((d) => d.Name === 'QueueName').map((d) => logicalIdOf(d.Value)))
    .filter((id): id is string => id !== undefined)
    .sort();
}

/** Alarms (logical IDs) no dashboard of the template shows. */
export function alarmsOffEveryDashboard(template: Template): string[] {
  const bodies = ofType(template, 'AWS::CloudWatch::Dashboard').map(([, p]) => JSON.stringify(p.DashboardBody));
  return ofType(template, 'AWS::CloudWatch::Alarm').map(([id]) => id).filter((id) => !bodies.some((body) => body.includes(`"${id}","Arn"`)));
}

/** The properties of one resource. */
export function propertiesOf(template: Template, logicalId: string): Record<string, unknown> {
  return resourcesOf(template)[logicalId]?.Properties ?? {};
}

/** The statements of the queue policies on a queue. */
export function queuePolicyStatements(template: Template, queueLogicalId: string): Record<string, unknown>[] {
  return ofType(template, 'AWS::SQS::QueuePolicy')
    .filter(([, p]) => (p.Queues as unknown[]).some((q) => logicalIdOf(q) === queueLogicalId))
    .flatMap(([, p]) => (p.PolicyDocument as { Statement: Record<string, unknown>[] }).Statement);
}
