import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ContractGate } from '../../lib/deploy/contract-gate.js';
import { assemblyStacks, type AssemblyStack } from './assembly-stacks.js';
import { findCfnLint, lintAssembly } from './cfn-lint.js';
import { nagFindings } from './nag-report.js';
import { duplicatePhysicalNames, physicalNames } from './physical-names.js';
import { bucketPrefixes, roleStatements } from './role-policy.js';

// The checks of the company app (company-app.test.ts), run on the gate as it is: what issue 29
// reports of it, each check must find. One account and region; stacks One and Two hold a gate
// with the defaults each, Other a gate named otherwise, Pair two gates of one name in one stack.
// One also holds a producer and a consumer role, granted through the gate.
// With issue 29's props (no physical names unless asked), two gates collide only when asked for
// the same names: this fixture then gives One, Two and Pair's gates one `namePrefix`.
const ENV = { account: '111111111111', region: 'eu-west-1' };
let outdir: string;
let stacks: AssemblyStack[];
let synthError: unknown;

beforeAll(() => {
  outdir = mkdtempSync(join(tmpdir(), 'contract-gate-checks-'));
  const app = new App({ outdir });
  const one = new Stack(app, 'One', { env: ENV });
  const gate = new ContractGate(one, 'Gate');
  gate.grantProducer(new Role(one, 'OrdersProducer', { assumedBy: new AccountRootPrincipal() }), 'orders');
  gate.grantConsumer(new Role(one, 'OrdersConsumer', { assumedBy: new AccountRootPrincipal() }), 'orders');
  new ContractGate(new Stack(app, 'Two', { env: ENV }), 'Gate');
  new ContractGate(new Stack(app, 'Other', { env: ENV }), 'Gate', { name: 'other' });
  const pair = new Stack(app, 'Pair', { env: ENV });
  new ContractGate(pair, 'A', { name: 'pair' });
  new ContractGate(pair, 'B', { name: 'pair' });
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  // The producer's and consumer's grants are unacknowledged wildcards: the synth fails on them,
  // after writing the templates and the report the checks read.
  try {
    app.synth();
  } catch (error) {
    synthError = error;
  }
  stacks = assemblyStacks(outdir);
}, 600_000);
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const only = (...ids: string[]) => stacks.filter((s) => ids.includes(s.id));

describe('the company app\'s checks, on the gate as it is before issue 29', () => {
  it('count every physical name of two default gates in one account and region as a duplicate, and none of a gate named otherwise', () => {
    const names = physicalNames(only('One'));
    const duplicates = duplicatePhysicalNames(only('One', 'Two', 'Other'));
    expect(names.length).toBe(33);
    expect(duplicates.length).toBe(33);
    for (const duplicate of duplicates) expect(duplicate.resources.map((r) => r.split('/')[0])).toEqual(['One', 'Two']);
    expect(duplicates.map((d) => d.name)).toEqual(expect.arrayContaining(['contract-gate-gate-validate', 'alias/contract-gate-gate-notices', '/aws/lambda/contract-gate-gate-probe', 'default/contract-gate-gate-fanout-requested']));
    expect(duplicatePhysicalNames(only('Pair')).length).toBe(33);
  });

  it('find cfn-lint E3019 errors in a stack holding two gates of one name, and no error in a stack holding one', async (ctx) => {
    const cfnLint = await findCfnLint();
    if (!('path' in cfnLint)) return ctx.skip(cfnLint.missing);
    const errors = (await lintAssembly(cfnLint.path, outdir)).filter((f) => f.level === 'Error');
    expect(errors.filter((e) => e.template !== 'Pair.template.json')).toEqual([]);
    expect(new Set(errors.map((e) => e.rule))).toEqual(new Set(['E3019']));
    // Reported at both resources of a pair; functions, queues, topics, log groups, alarms, ... (not rules).
    expect(errors.length).toBe(52);
  }, 600_000);

  it('collect the cdk-nag errors of the producer\'s and consumer\'s grants, and nothing of the gates', () => {
    expect(String(synthError)).toMatch(/ValidationFailed/);
    const errors = nagFindings(outdir, { severity: 'error' });
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.filter((e) => !/^AwsSolutions-IAM5\[Resource::<GateGateBucket[0-9A-F]+\.Arn>\/.+\/orders\/\*\] \(error\) at One\/Orders(Producer|Consumer)\/DefaultPolicy\/Resource$/.test(e))).toEqual([]);
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
