import type { ParseArgsConfig } from 'node:util';
import { describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { formatCommandHelp } from '../../lib/cli/format-help.js';
import { COMMANDS } from '../../lib/cli/run-cli.js';
import { COMMAND_HELP, type CommandName } from '../../lib/cli/usage.js';

/** parseArgs records what it was given and stops the command there: nothing else of it runs. */
const seen = vi.hoisted(() => ({ config: undefined as ParseArgsConfig | undefined }));
class Stop extends Error {}
vi.mock('node:util', async (original) => ({
  ...(await original<typeof import('node:util')>()),
  parseArgs: (config: ParseArgsConfig) => {
    seen.config = config;
    throw new Stop();
  },
}));

/** The commands whose options are COMMAND_HELP's own entry: their help cannot drift at all. */
const FROM_TABLE: readonly CommandName[] = ['validate', 'lint', 'diff', 'check-compat', 'export', 'demo', 'publish', 'replay', 'redrive', 'release', 'drop'];

const io: CliIo = { stdout: () => undefined, stderr: () => undefined, isTTY: false };

async function optionsOf(name: CommandName): Promise<ParseArgsConfig['options']> {
  const command = (await COMMANDS[name]!()) as (...args: unknown[]) => Promise<number>;
  const captured = (): ParseArgsConfig | undefined => seen.config;
  seen.config = undefined;
  // serve's third argument would otherwise install SIGINT handlers in the test process.
  await expect(command([], io, new AbortController().signal)).rejects.toBeInstanceOf(Stop);
  return captured()?.options ?? {};
}

describe('help cannot drift from what a command accepts', () => {
  const wired = (Object.keys(COMMAND_HELP) as CommandName[]).filter((name) => COMMANDS[name]);

  it('lists, with its type, every option each command passes to parseArgs', async () => {
    for (const name of wired) {
      const options = await optionsOf(name);
      const help = formatCommandHelp(name);
      const table: Readonly<Record<string, { type: string }>> = COMMAND_HELP[name].options;
      for (const [option, spec] of Object.entries(options ?? {})) {
        expect({ name, option, listed: help.includes(`--${option}`), type: table[option]?.type }).toEqual({ name, option, listed: true, type: spec.type });
      }
    }
  });

  it('gives the table\'s own entry to parseArgs in the commands that take it from there', async () => {
    for (const name of FROM_TABLE) expect({ name, same: (await optionsOf(name)) === COMMAND_HELP[name].options }).toEqual({ name, same: true });
  });
});
