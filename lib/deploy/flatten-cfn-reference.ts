/**
 * A CloudFormation reference as the flat string cdk-nag names findings by (`<Bucket.Arn>/staging/*`),
 * the same rendering as cdk-nag 3's lib/utils/flatten-cfn-reference (Apache-2.0), kept here so
 * acknowledging a finding needs no cdk-nag at run time: a package user may not install it.
 * test/deploy/cdk-nag.test.ts checks the two agree on the gate's own ARNs.
 */
export function flattenCfnReference(reference: unknown): string {
  if (reference === undefined) return '';
  // Fn::Sub's `${...}` becomes `<...>`, as cdk-nag writes it.
  if (typeof reference === 'string') return reference.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const node = reference as Record<string, unknown>;
  if (node['Fn::Join']) {
    const [delimiter, items] = node['Fn::Join'] as [string, unknown[]];
    return items.map(flattenCfnReference).join(delimiter);
  }
  if (node['Fn::Sub']) return flattenCfnReference(node['Fn::Sub']);
  if (node['Fn::GetAtt']) {
    const [resource, attribute] = node['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattenCfnReference(resource)}.${flattenCfnReference(attribute)}>`;
  }
  if (node['Fn::ImportValue']) return flattenCfnReference(node['Fn::ImportValue']);
  if (node.Ref) return `<${flattenCfnReference(node.Ref)}>`;
  return JSON.stringify(reference);
}
