import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { packageVersion } from '../../lib/cli/package-version.js';
import { COMMANDS, runCli } from '../../lib/cli/run-cli.js';
import { COMMAND_HELP, type CommandName } from '../../lib/cli/usage.js';

const NAMES = Object.keys(COMMAND_HELP) as CommandName[];

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  return { code: await runCli(args, io), stdout, stderr };
}

describe('contract-gate <command> --help', () => {
  const saved = { ...COMMANDS };
  afterEach(() => Object.assign(COMMANDS, saved));

  it('prints every command\'s usage, options with defaults, and exit codes, exiting 0, without loading it', async () => {
    // A loader that fails proves help never imports the command module.
    for (const name of NAMES) if (COMMANDS[name]) COMMANDS[name] = () => Promise.reject(new Error(`${name} was loaded for --help`));
    for (const name of NAMES) {
      const help = COMMAND_HELP[name];
      for (const flag of ['--help', '-h']) {
        const { code, stdout, stderr } = await run([name, flag]);
        expect({ name, flag, code, stderr }).toEqual({ name, flag, code: 0, stderr: '' });
        expect(stdout.startsWith(`usage: ${help.usage}\n`)).toBe(true);
        for (const option of Object.keys(help.options)) expect(stdout).toMatch(new RegExp(`^  --${option}\\b.*`, 'm'));
        for (const [exit, meaning] of help.exits) expect(stdout).toContain(`  ${exit}  ${meaning}`);
      }
      expect((await run(['help', name])).stdout).toBe((await run([name, '--help'])).stdout);
    }
  });

  it('states the default of every option that has one', async () => {
    const { stdout } = await run(['drop', '--help']);
    expect(stdout).toMatch(/--timeout <duration> +how long to wait .*\(default: 15m\)/);
    expect((await run(['validate', '-h'])).stdout).toMatch(/--format text\|json\|junit\|html\n +.*\(default: text\)/);
  });

  it('takes --help wherever it stands before --, even among other arguments', async () => {
    expect((await run(['validate', '--contract', 'x.yaml', 'dir', '--help'])).code).toBe(0);
    expect((await run(['lint', '--', '--help'])).stderr).toContain('--help: cannot read the contract file');
  });

  it('lists every command in the overview, exit 0 when asked and 2 with no arguments', async () => {
    const asked = await run(['--help']);
    expect(asked.code).toBe(0);
    for (const name of NAMES) expect(asked.stdout).toContain(COMMAND_HELP[name].usage);
    expect((await run([])).code).toBe(2);
    expect((await run(['help', 'frobnicate'])).stderr).toContain('no help for "frobnicate"');
  });
});

describe('contract-gate --version', () => {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

  it('prints the package version for --version, -V and version', async () => {
    for (const word of ['--version', '-V', 'version']) expect(await run([word])).toEqual({ code: 0, stdout: `contract-gate ${version}\n`, stderr: '' });
  });

  it('finds its package.json from dist/ and from an installed copy, past the installing app', async () => {
    const app = mkdtempSync(join(tmpdir(), 'cg-version-'));
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'some-app', version: '9.9.9' }));
    const installed = join(app, 'node_modules', 'contract-gate');
    mkdirSync(join(installed, 'dist', 'lib', 'cli'), { recursive: true });
    writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'contract-gate', version: '3.4.5' }));
    expect(await packageVersion(pathToFileURL(join(installed, 'dist', 'lib', 'cli') + '/'))).toBe('3.4.5');
    await expect(packageVersion(pathToFileURL(join(app, 'elsewhere') + '/'))).rejects.toThrow('no package.json of contract-gate');
  });
});

describe('an option a command does not take', () => {
  it('names the closest option and the usage line, exit 2', async () => {
    const { code, stderr } = await run(['validate', '--contract', 'contracts/orders.v1.yaml', '--formt', 'json', 'x']);
    expect(code).toBe(2);
    expect(stderr).toBe(`contract-gate validate: unknown option '--formt'; did you mean '--format'?\nusage: ${COMMAND_HELP.validate.usage}\nrun contract-gate validate --help for every option\n`);
    expect((await run(['check-compat', '--bsae', 'main'])).stderr).toContain("unknown option '--bsae'; did you mean '--base'?");
  });

  it('suggests nothing when nothing is close, and shows the usage for other parse errors', async () => {
    expect((await run(['diff', '--colourful'])).stderr).toContain("unknown option '--colourful'\nusage: contract-gate diff");
    expect((await run(['export', 'x.yaml', '--to'])).stderr).toContain("Option '--to <value>' argument missing\nusage: contract-gate export");
  });
});
