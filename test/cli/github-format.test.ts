import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { escapeData, escapeProperty, formatAnnotation } from '../../lib/report/github-annotations.js';

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

/** Undoes GitHub's workflow-command encoding, as the runner does. */
function unescape(text: string): string {
  return text.replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
}

describe('GitHub Actions workflow commands', () => {
  it('encodes %, CR and LF in the message, and : and , too in properties, reversibly', () => {
    const hostile = 'a%0A:b,c\r\nd 🦆 %25';
    expect(escapeData(hostile)).toBe('a%250A:b,c%0D%0Ad 🦆 %2525');
    expect(escapeProperty(hostile)).toBe('a%250A%3Ab%2Cc%0D%0Ad 🦆 %2525');
    expect(unescape(escapeProperty(hostile))).toBe(hostile);
    const line = formatAnnotation({ level: 'warning', file: 'a,b:c.yaml', line: 3, col: 7, title: 'x::y', message: hostile });
    expect(line).toBe(`::warning file=a%2Cb%3Ac.yaml,line=3,col=7,title=x%3A%3Ay::${escapeData(hostile)}`);
    expect(line.split('\n')).toHaveLength(1);
  });
});

describe('contract-gate lint --format github', () => {
  it('writes one annotation per problem at its line and column, titled by the rule, exit code unchanged', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cg-lint-gh-'));
    const bad = join(dir, 'orders.v1.yaml');
    writeFileSync(bad, 'name: orders\nversion: 1.0.0\nownr: {}\n');
    const { code, stdout, stderr } = await run(['lint', '--format', 'github', 'contracts/orders.v1.yaml', bad]);
    expect(code).toBe(2);
    expect(stderr).toBe('');
    const lines = stdout.trimEnd().split('\n');
    expect(lines.every((l) => /^::(error|warning) file=[^,]+,line=\d+,col=\d+,title=[a-z_]+::/.test(l))).toBe(true);
    expect(lines).toContain(`::error file=${escapeProperty(bad)},line=3,col=1,title=unknown_key::ownr: unknown key "ownr"; did you mean "owner"?`);
    expect(stdout).toContain('missing required key "produces"');
  });

  it('prints nothing for clean contracts and refuses an unknown format', async () => {
    expect(await run(['lint', '--format', 'github', 'contracts/orders.v1.yaml'])).toEqual({ code: 0, stdout: '', stderr: '' });
    expect((await run(['lint', '--format', 'sarif', 'contracts/orders.v1.yaml'])).stderr).toContain('--format must be text or github, not "sarif"');
  });
});
