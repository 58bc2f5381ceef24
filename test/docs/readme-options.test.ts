import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../lib/deploy/gate-function.js';
import { COMMAND_HELP, type CommandName } from '../../lib/cli/usage.js';

/** Options the README need not spell out: `drop --wait` is the default `--no-wait` turns off. */
const UNSPOKEN: Partial<Record<CommandName, readonly string[]>> = { drop: ['wait'] };

// test/cli/help-options.test.ts holds each command's help to what it passes parseArgs; this holds
// the README to the help, so an option added to a command is also described where users read.
describe('the README and the CLI', () => {
  it('names every option a command\'s help lists', () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const unnamed = (Object.keys(COMMAND_HELP) as CommandName[]).flatMap((name) => Object.keys(COMMAND_HELP[name].options)
      .filter((option) => !UNSPOKEN[name]?.includes(option) && !readme.includes(`--${option}`))
      .map((option) => `${name} --${option}`));
    expect(unnamed).toEqual([]);
  });
});
