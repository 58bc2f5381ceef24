import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { AccountRootPrincipal, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';
import { assemblyStacks, type AssemblyStack } from './assembly-stacks.js';
import { findCfnLint, lintAssembly } from './cfn-lint.js';
import { nagFindings } from './nag-report.js';
import { duplicatePhysicalNames, physicalNames } from './physical-names.js';
import { bucketPrefixes, roleStatements } from './role-policy.js';

// The checks of the company app (company-app.test.ts) must find what issue 29 reported, so they
// run here on gates asked to collide: One, Two and Pair's gates take one `namePrefix` (the names
// every gate had before issue 29), Other's another. One also holds a producer and a consumer
// role granted through the gate, and a role with a raw, unacknowledged wildcard for cdk-nag.
const ENV = { account: '111111111111', region: 'eu-west-1' };
const SHARED_PREFIX = 'contract-gate-gate';
let outdir: string;
let stacks: AssemblyStack[];
let synthError: unknown;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'contract-gate-checks-'));
  const app = new App({ outdir });
  const one = new Stack(app, 'One', { env: ENV });
  const gate = new ContractGate(one, 'Gate', { namePrefix: SHARED_PREFIX });
  gate.grantProducer(new Role(one, 'OrdersProducer', { assumedBy: new AccountRootPrincipal() }), 'orders');
  gate.grantConsumer(new Role(one, 'OrdersConsumer', { assumedBy: new AccountRootPrincipal() }), 'orders');
  const raw = new Role(one, 'RawReader', { assumedBy: new AccountRootPrincipal() });
  raw.addToPolicy(new PolicyStatement({ actions: ['s3:GetObject'], resources: [gate.bucket.arnForObjects('*')] }));
  new ContractGate(new Stack(app, 'Two', { env: ENV }), 'Gate', { namePrefix: SHARED_PREFIX });
  new ContractGate(new Stack(app, 'Other', { env: ENV }), 'Gate', { namePrefix: 'other-gate' });
  const pair = new Stack(app, 'Pair', { env: ENV });
  new ContractGate(pair, 'A', { namePrefix: SHARED_PREFIX });
  new ContractGate(pair, 'B', { namePrefix: SHARED_PREFIX });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // The raw reader's wildcard is unacknowledged: the synth fails on it, after writing the
  // templates and the report the checks read.
  try {
    app.synth();
  } catch (error) {
    synthError = error;
  }
  stacks = assemblyStacks(outdir);
}, 600_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const only = (...ids: string[]) => stacks.filter((s) => ids.includes(s.id));

describe('the company app\'s checks, on gates asked to collide', () => {
  it('count every physical name of two gates with one name prefix in one account and region as a duplicate, and none of a gate prefixed otherwise', () => {
    const names = physicalNames(only('One'));
    const duplicates = duplicatePhysicalNames(only('One', 'Two', 'Other'));
    expect(names.length).toBe(36);
    expect(duplicates.length).toBe(36);
    for (const duplicate of duplicates) expect(duplicate.resources.map((r) => r.split('/')[0])).toEqual(['One', 'Two']);
    expect(duplicates.map((d) => d.name)).toEqual(expect.arrayContaining(['contract-gate-gate-validate', 'alias/contract-gate-gate-notices', '/aws/lambda/contract-gate-gate-probe', 'default/contract-gate-gate-fanout-requested']));
    expect(duplicatePhysicalNames(only('Pair')).length).toBe(36);
  });

  it('find cfn-lint E3019 errors in a stack holding two gates of one name, and no error in a stack holding one', async (ctx) => {
    const cfnLint = await findCfnLint();
    if (!('path' in cfnLint)) return ctx.skip(cfnLint.missing);
    const errors = (await lintAssembly(cfnLint.path, outdir)).filter((f) => f.level === 'Error');
    expect(errors.filter((e) => e.template !== 'Pair.template.json')).toEqual([]);
    expect(new Set(errors.map((e) => e.rule))).toEqual(new Set(['E3019']));
    // Reported at both resources of a pair (29 pairs); functions, queues, topics, log groups, alarms, ... (not rules).
    expect(errors.length).toBe(58);
  }, 600_000);

  it('collect the cdk-nag error of a raw wildcard, and nothing of the gates or of their grants', () => {
    expect(String(synthError)).toMatch(/ValidationFailed/);
    const errors = nagFindings(outdir, { severity: 'error' });
    expect(errors).toEqual([expect.stringMatching(/^AwsSolutions-IAM5\[Resource::<GateGateBucket[0-9A-F]+\.Arn>\/\*\] \(error\) at One\/RawReader\/DefaultPolicy\/Resource$/)]);
    expect(nagFindings(outdir, { severity: 'warning' })).toEqual([]);
  });

  it('read each role\'s prefixes of the gate bucket from the template', () => {
    const [one] = only('One');
    const bucket = `<${Object.keys(one!.template.Resources!).find((id) => /^GateGateBucket[0-9A-F]+$/.test(id))}.Arn>`;
    const roleId = (name: string) => Object.keys(one!.template.Resources!).find((id) => id.startsWith(name) && one!.template.Resources![id]!.Type === 'AWS::IAM::Role')!;
    expect(bucketPrefixes(roleStatements(one!.template, roleId('OrdersConsumer')), bucket)).toEqual({ 's3:GetObject': ['published/orders/'], 's3:ListBucket': ['published/orders/'] });
    const producer = bucketPrefixes(roleStatements(one!.template, roleId('OrdersProducer')), bucket);
    expect(producer['s3:PutObject']).toEqual(expect.arrayContaining(['staging/orders/']));
    expect(producer['s3:GetObject']).toEqual(expect.arrayContaining(['_gate/decisions/orders/', 'quarantine/orders/', 'staging/orders/']));
  });
});
