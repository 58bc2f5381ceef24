import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { assemblyStacks } from './assembly-stacks.js';

const run = promisify(execFile);

/** One finding of cfn-lint's, as its JSON output gives it. */
export interface CfnLintFinding {
  readonly level: 'Error' | 'Warning' | 'Informational';
  readonly rule: string;
  readonly message: string;
  /** The template, relative to the assembly. */
  readonly template: string;
  /** Where in the template: `Resources/<logical ID>/...`. */
  readonly path: string;
}

/** Where cfn-lint is, or why it cannot be run: the test that needs it skips with the reason. */
export type CfnLint = { readonly path: string; readonly version: string } | { readonly missing: string };

/**
 * cfn-lint from CFN_LINT, the PATH, or pyenv's shims (where `pip install cfn-lint` puts it under
 * pyenv); a shim whose Python has no cfn-lint fails `--version` and counts as missing.
 */
export async function findCfnLint(env: NodeJS.ProcessEnv = process.env): Promise<CfnLint> {
  const candidates = [env.CFN_LINT, ...(env.PATH ?? '').split(delimiter).filter(Boolean).map((dir) => join(dir, 'cfn-lint')), join(env.HOME ?? homedir(), '.pyenv/shims/cfn-lint')];
  const found = candidates.find((path): path is string => path !== undefined && existsSync(path));
  if (!found) return { missing: 'cfn-lint is not installed (not in CFN_LINT, the PATH or ~/.pyenv/shims): pip install cfn-lint to run the template checks' };
  try {
    const { stdout } = await run(found, ['--version'], { timeout: 120_000, encoding: 'utf8' });
    return { path: found, version: stdout.trim() };
  } catch (error) {
    return { missing: `cfn-lint at ${found} does not run (${(error as Error).message.split('\n')[0]}): pip install cfn-lint to run the template checks` };
  }
}

/**
 * cfn-lint over every stack template of a synthesized assembly, each checked against its own
 * stack's region (us-east-1 for a stack without one). Every finding is returned; callers pick
 * the level they assert on.
 */
export async function lintAssembly(cfnLint: string, assemblyDir: string): Promise<CfnLintFinding[]> {
  const byRegion = new Map<string, string[]>();
  for (const stack of assemblyStacks(assemblyDir)) {
    const region = stack.region ?? 'us-east-1';
    byRegion.set(region, [...(byRegion.get(region) ?? []), stack.templateFile]);
  }
  const findings: CfnLintFinding[] = [];
  for (const [region, templates] of byRegion) findings.push(...(await lintTemplates(cfnLint, templates, region, assemblyDir)));
  return findings;
}

async function lintTemplates(cfnLint: string, templates: readonly string[], region: string, assemblyDir: string): Promise<CfnLintFinding[]> {
  // Exit code 0 whatever is found: the findings are read from the JSON, a crash still throws.
  const args = ['--format', 'json', '--non-zero-exit-code', 'none', '--regions', region, '--template', ...templates];
  const { stdout } = await run(cfnLint, args, { timeout: 600_000, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8' });
  const raw = JSON.parse(stdout) as { Level: CfnLintFinding['level']; Rule: { Id: string }; Message: string; Filename: string; Location: { Path: (string | number)[] } }[];
  return raw.map((f) => ({ level: f.Level, rule: f.Rule.Id, message: f.Message, template: relative(assemblyDir, f.Filename), path: f.Location.Path.join('/') }));
}
