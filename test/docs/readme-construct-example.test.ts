import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';

const run = promisify(execFile);

// The README's ContractGate example is what a platform engineer copies: it must type-check against
// the package's own declarations and synthesize. The names it leaves to the reader are defined here.
const PRELUDE = `import { App, Stack } from 'aws-cdk-lib';
import { AccountRootPrincipal, Role } from 'aws-cdk-lib/aws-iam';
import { Topic as ExampleTopic } from 'aws-cdk-lib/aws-sns';
const app = new App({ outdir: process.argv[2] });
const stack = new Stack(app, 'Lake', { env: { account: '111111111111', region: 'eu-west-1' } });
const lakeKeyArn = 'arn:aws:kms:eu-west-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const dataAlertsArn = 'arn:aws:sns:eu-west-1:111111111111:data-alerts';
const pagerTopic = new ExampleTopic(stack, 'Pager');
const ordersCiRole = new Role(stack, 'OrdersCi', { assumedBy: new AccountRootPrincipal() });
const analyticsRole = new Role(stack, 'Analytics', { assumedBy: new AccountRootPrincipal() });
`;
const EPILOGUE = `
const template = app.synth().getStackByName('Lake').template as { Resources: Record<string, { Type: string; Properties?: Record<string, unknown> }> };
console.log(JSON.stringify({ gates: [gate.gateName, sales.gateName], resources: Object.values(template.Resources).map((r) => r.Type) }));
`;

function readmeExample(): string {
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### In a stack of your own'));
  const block = /```ts\n([\s\S]*?)```/.exec(section);
  if (!block) throw new Error('README.md: no ```ts block under "In a stack of your own"');
  return block[1]!;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the README\'s ContractGate example', () => {
  it('type-checks against the package\'s declarations and synthesizes two gates, one on an existing topic', async () => {
    // Inside the repository, so `contract-gate/cdk` resolves to this package (dist/, built by npm test).
    const dir = mkdtempSync(join(PROJECT_ROOT, 'test/docs/.example-'));
    dirs.push(dir);
    const file = join(dir, 'example.ts');
    writeFileSync(file, `${PRELUDE}${readmeExample()}${EPILOGUE}`);
    const tsc = join(PROJECT_ROOT, 'node_modules/typescript/bin/tsc');
    const flags = ['--noEmit', '--strict', '--skipLibCheck', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--types', 'node'];
    await run(process.execPath, [tsc, ...flags, file], { cwd: PROJECT_ROOT }).catch((error: { stdout?: string }) => {
      throw new Error(`the README example does not type-check:\n${error.stdout ?? ''}`);
    });
    const tsx = join(PROJECT_ROOT, 'node_modules/tsx/dist/cli.mjs');
    const { stdout } = await run(process.execPath, [tsx, file, join(dir, 'cdk.out')], { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { gates: string[]; resources: string[] };
    expect(result.gates[1]).toBe('sales');
    // The first gate makes its topic; the second uses the company's.
    expect(result.resources.filter((type) => type === 'AWS::SNS::Topic')).toHaveLength(2);
    expect(result.resources.filter((type) => type === 'AWS::S3::Bucket').length).toBeGreaterThanOrEqual(1);
  }, 300_000);
});
