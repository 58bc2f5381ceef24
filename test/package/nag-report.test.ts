import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Stack, Validations } from 'aws-cdk-lib';
import { AccountRootPrincipal, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { afterAll, describe, expect, it } from 'vitest';
import { nagFindings, VALIDATION_REPORT } from './nag-report.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Synthesizes an app of one stack, built by `build`, into a new directory; a failed synth is not an error here. */
function synth(build: (stack: Stack) => void, options: { nag: boolean }): string {
  const outdir = mkdtempSync(join(tmpdir(), 'nag-report-test-'));
  dirs.push(outdir);
  const app = new App({ outdir });
  build(new Stack(app, 'S', { env: { account: '111111111111', region: 'eu-west-1' } }));
  if (options.nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  try {
    app.synth();
  } catch {
    // The report is written before the synth fails on it.
  }
  return outdir;
}

describe('nagFindings', () => {
  it('lists the unacknowledged findings of a failed synth, each rule at its construct, and filters by severity', () => {
    const outdir = synth((stack) => {
      const role = new Role(stack, 'Wild', { assumedBy: new AccountRootPrincipal() });
      role.addToPolicy(new PolicyStatement({ actions: ['s3:*'], resources: ['*'] }));
      Validations.of(role).acknowledge({ id: 'AwsSolutions-IAM5[Resource::*]', reason: 'A test of the reader: this one is acknowledged and must not be listed.' });
    }, { nag: true });
    expect(nagFindings(outdir)).toEqual(['AwsSolutions-IAM5[Action::s3:*] (error) at S/Wild/DefaultPolicy/Resource']);
    expect(nagFindings(outdir, { severity: 'warning' })).toEqual([]);
  });

  it('lists nothing for a clean synth', () => {
    const outdir = synth((stack) => {
      new Queue(stack, 'Queue', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true, deadLetterQueue: { maxReceiveCount: 3, queue: new Queue(stack, 'Dlq', { encryption: QueueEncryption.SQS_MANAGED, enforceSSL: true }) } });
      Validations.of(stack.node.findChild('Dlq')).acknowledge({ id: 'AwsSolutions-SQS3', reason: 'The dead-letter queue itself: it has no dead-letter queue of its own by design.' });
    }, { nag: true });
    expect(nagFindings(outdir)).toEqual([]);
  });

  it('lists only cdk-nag\'s findings, not those of other validation plugins', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'nag-report-test-'));
    dirs.push(outdir);
    const violation = (ruleName: string, severity: string, constructPath: string) => ({ ruleName, severity, violatingConstructs: [{ constructPath }] });
    writeFileSync(join(outdir, VALIDATION_REPORT), JSON.stringify({
      pluginReports: [
        { pluginName: 'CloudFormation Validate', violations: [violation('E3019', 'error', 'S/B/Resource')] },
        { pluginName: 'AwsSolutions', violations: [violation('AwsSolutions-SQS3', 'error', 'S/A/Resource'), violation('AwsSolutions-L1', 'warning', 'S/F/Resource')] },
      ],
    }));
    expect(nagFindings(outdir)).toEqual(['AwsSolutions-SQS3 (error) at S/A/Resource', 'AwsSolutions-L1 (warning) at S/F/Resource']);
    expect(nagFindings(outdir, { severity: 'error' })).toEqual(['AwsSolutions-SQS3 (error) at S/A/Resource']);
  });

  it('refuses an assembly with no validation report, saying how to register cdk-nag', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'nag-report-test-'));
    dirs.push(outdir);
    expect(() => nagFindings(outdir)).toThrow(/no validation-report\.json .*AwsSolutionsChecks/);
  });
});
