/**
 * A company's CDK app, as issue 29's platform engineer wrote it, against the package's own
 * declarations: an existing SSE-KMS lake bucket and its key, an existing ops topic, two gates in
 * one stack on that bucket (one with a name prefix, one without), and a gate in a second stack
 * of another account and region, on a bucket it creates with a key of the stack's. A producer
 * role per dataset, an analyst role consuming from both lake gates, cdk-nag on. Compiled in the
 * scratch app (only the package, aws-cdk-lib, constructs and cdk-nag installed) and run by
 * COMPANY_RUN_MJS, which prints what the test needs to find things in the templates.
 */
export const COMPANY_APP_TS = `import { App, Stack, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { AwsSolutionsChecks } from 'cdk-nag';
import type { Construct } from 'constructs';
import { addAwsSolutionsChecks, ContractGate } from 'contract-gate/cdk';

export const LAKE_ENV = { account: '111111111111', region: 'eu-west-1' };
export const REPORTING_ENV = { account: '222222222222', region: 'eu-central-1' };
export const LAKE_BUCKET_ARN = 'arn:aws:s3:::acme-data-lake';
export const LAKE_KEY_ARN = 'arn:aws:kms:eu-west-1:111111111111:key/0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
const OPS_TOPIC_ARN = 'arn:aws:sns:eu-west-1:111111111111:data-ops';

/** The gate's areas for one team under its own top-level prefix of the shared lake. */
function teamPrefixes(team: string) {
  return { staging: team + '/staging/', published: team + '/published/', quarantine: team + '/quarantine/', state: team + '/_gate/' };
}

/** What the test looks up in a stack's template: roles by their logical IDs. */
export interface StackFacts {
  readonly roles: Record<string, string>;
}

function roleIn(stack: Stack, id: string, facts: Record<string, string>): Role {
  const role = new Role(stack, id, { assumedBy: new AccountRootPrincipal(), description: 'contract-gate company app: ' + id });
  facts[id] = stack.getLogicalId(role.node.defaultChild as never);
  return role;
}

export class LakeGates extends Stack {
  readonly facts: StackFacts = { roles: {} };

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    const encryptionKey = Key.fromKeyArn(this, 'LakeKey', LAKE_KEY_ARN);
    const bucket = Bucket.fromBucketAttributes(this, 'Lake', { bucketArn: LAKE_BUCKET_ARN, encryptionKey });
    const topic = Topic.fromTopicArn(this, 'DataOps', OPS_TOPIC_ARN);
    const shared = { bucket, encryptionKey, topic, alarmActions: [new SnsAction(topic)], fanout: { bucketEventBridge: 'enabled-by-owner' as const } };
    const sales = new ContractGate(this, 'Sales', { ...shared, gateName: 'sales', prefixes: teamPrefixes('sales'), contracts: { source: 'registry', prefix: 'sales/_contracts/' } });
    const finance = new ContractGate(this, 'Finance', { ...shared, gateName: 'finance', namePrefix: 'finance-gate', prefixes: teamPrefixes('finance'), contracts: { source: 'registry', prefix: 'finance/_contracts/' } });
    sales.grantProducer(roleIn(this, 'OrdersProducer', this.facts.roles), 'orders');
    finance.grantProducer(roleIn(this, 'PaymentsProducer', this.facts.roles), 'payments');
    const analyst = roleIn(this, 'Analyst', this.facts.roles);
    sales.grantConsumer(analyst, 'orders');
    finance.grantConsumer(analyst, 'payments');
  }
}

export class ReportingGate extends Stack {
  readonly facts: StackFacts & { readonly keyLogicalId: string };

  constructor(scope: Construct, id: string, props: StackProps) {
    super(scope, id, props);
    const encryptionKey = new Key(this, 'ReportingKey', { enableKeyRotation: true, description: 'contract-gate company app: the reporting bucket' });
    const gate = new ContractGate(this, 'Gate', { gateName: 'reporting', encryptionKey });
    const roles: Record<string, string> = {};
    gate.grantProducer(roleIn(this, 'UsageProducer', roles), 'usage');
    gate.grantConsumer(roleIn(this, 'UsageConsumer', roles), 'usage');
    this.facts = { roles, keyLogicalId: this.getLogicalId(encryptionKey.node.defaultChild as never) };
  }
}

/**
 * Synthesizes the app into outdir, cdk-nag registered as the package says. A synth that fails
 * (on cdk-nag's findings) still writes the templates and the validation report; its message is
 * returned for the test to show. A clean report looks the same with cdk-nag as without it, so
 * the rules are also run on the tree directly: both must find nothing.
 */
export async function synthCompanyApp(outdir: string): Promise<{ synthError?: string; nagDirect: string[]; stacks: Record<string, unknown> }> {
  const app = new App({ outdir });
  const lake = new LakeGates(app, 'DataLake', { env: LAKE_ENV });
  const reporting = new ReportingGate(app, 'Reporting', { env: REPORTING_ENV });
  await addAwsSolutionsChecks(app);
  let synthError: string | undefined;
  try {
    app.synth();
  } catch (error) {
    synthError = String(error);
  }
  const nagDirect = new AwsSolutionsChecks().validateScope(app).violations
    .flatMap((v) => v.violatingResources.map((r) => v.ruleName + ' (' + v.severity + ') at ' + r.constructPath));
  return { ...(synthError ? { synthError } : {}), nagDirect, stacks: { [lake.artifactId]: lake.facts, [reporting.artifactId]: reporting.facts } };
}
`;


/** The app's entry: the output directory in, one JSON line out. */
export const COMPANY_RUN_MJS = `import { synthCompanyApp } from './out/company-app.js';
console.log(JSON.stringify(await synthCompanyApp(process.argv[2])));
`;
