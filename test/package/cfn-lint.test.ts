import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findCfnLint, lintAssembly } from './cfn-lint.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'cfn-lint-test-'));
  dirs.push(dir);
  return dir;
};

/** An assembly of stacks named by region, each holding these resources (undefined: env-agnostic). */
function assembly(stacks: Record<string, { region?: string; resources: object }>): string {
  const dir = tempDir();
  const artifacts: Record<string, object> = {};
  for (const [id, stack] of Object.entries(stacks)) {
    writeFileSync(join(dir, `${id}.template.json`), JSON.stringify({ Resources: stack.resources }));
    artifacts[id] = { type: 'aws:cloudformation:stack', environment: `aws://${stack.region ? '111111111111' : 'unknown-account'}/${stack.region ?? 'unknown-region'}`, properties: { templateFile: `${id}.template.json` } };
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: '55.0.0', artifacts }));
  return dir;
}

// App Runner is in eu-west-1 and not in il-central-1: E3006 there, nothing here.
const APP_RUNNER = { Service: { Type: 'AWS::AppRunner::Service', Properties: { SourceConfiguration: { ImageRepository: { ImageIdentifier: 'public.ecr.aws/x/y:latest', ImageRepositoryType: 'ECR_PUBLIC' } } } } };

describe('findCfnLint', () => {
  it('says why when cfn-lint is nowhere: not in CFN_LINT, the PATH or pyenv\'s shims', async () => {
    const home = tempDir();
    expect(await findCfnLint({ PATH: tempDir(), HOME: home })).toEqual({ missing: expect.stringMatching(/^cfn-lint is not installed .*pip install cfn-lint/) });
  });

  it('counts a cfn-lint that does not run (a pyenv shim without the package) as missing', async () => {
    const bin = tempDir();
    writeFileSync(join(bin, 'cfn-lint'), '#!/bin/sh\necho "pyenv: cfn-lint: command not found" >&2\nexit 127\n');
    chmodSync(join(bin, 'cfn-lint'), 0o755);
    const found = await findCfnLint({ PATH: bin, HOME: tempDir() });
    expect(found).toEqual({ missing: expect.stringContaining(`cfn-lint at ${join(bin, 'cfn-lint')} does not run`) });
  });
});

describe('lintAssembly', () => {
  it('lints every stack\'s template against that stack\'s own region, and returns each finding with its template and path', async (ctx) => {
    const cfnLint = await findCfnLint();
    if (!('path' in cfnLint)) return ctx.skip(cfnLint.missing);
    const dir = assembly({
      Dublin: { region: 'eu-west-1', resources: APP_RUNNER },
      TelAviv: { region: 'il-central-1', resources: APP_RUNNER },
      Anywhere: { resources: { Queue: { Type: 'AWS::SQS::Queue', Properties: { VisibilityTimeout: 'soon' } } } },
    });
    const errors = (await lintAssembly(cfnLint.path, dir)).filter((f) => f.level === 'Error').map((f) => `${f.template} ${f.rule} ${f.path}`);
    expect(errors.sort()).toEqual([
      'Anywhere.template.json E3012 Resources/Queue/Properties/VisibilityTimeout',
      'TelAviv.template.json E3006 Resources/Service/Type',
    ]);
  }, 600_000);
});
