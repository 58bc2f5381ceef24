import { didYouMean } from '../contract/did-you-mean.js';
import { COMMAND_HELP, type CommandHelp, type CommandName, type OptionHelp } from './usage.js';

const HELP_OPTION: readonly [string, string] = ['-h, --help', 'print this help'];

/** `contract-gate <command> --help`: usage, what it does, operands, options with defaults, exit codes. */
export function formatCommandHelp(name: CommandName): string {
  const help: CommandHelp = COMMAND_HELP[name];
  const options = [...Object.entries(help.options).map(([option, spec]) => optionRow(option, spec)), HELP_OPTION];
  const sections = [`usage: ${help.usage}`, help.summary];
  if (help.operands.length > 0) sections.push(`arguments:\n${table(help.operands)}`);
  sections.push(`options:\n${table(options)}`, `exit codes:\n${help.exits.map(([code, meaning]) => `  ${code}  ${meaning}`).join('\n')}`);
  return `${sections.join('\n\n')}\n`;
}

/** `contract-gate --help`: every command's usage line and summary, generated from the same table. */
export function formatOverview(): string {
  const entries = Object.values(COMMAND_HELP).map((help: CommandHelp) => `  ${help.usage}\n      ${help.summary}`);
  return [
    'contract-gate: make a data contract something a publish fails on',
    '',
    'usage:',
    ...entries,
    '',
    'contract-gate <command> --help prints its options and exit codes; contract-gate --version, the version.',
    '',
  ].join('\n');
}

/**
 * What to print for an argument parseArgs refused: its message, a suggestion for a misspelt
 * option, and the usage line, so the fix is on screen. Undefined for any other error.
 */
export function describeArgumentError(error: unknown, name: CommandName): string | undefined {
  if (!(error instanceof Error) || !('code' in error) || !String(error.code).startsWith('ERR_PARSE_ARGS')) return undefined;
  const help: CommandHelp = COMMAND_HELP[name];
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /Unknown option '([^']+)'/.exec(error.message)?.[1] : undefined;
  const first = unknown === undefined ? error.message : unknownOption(unknown, Object.keys(help.options));
  return `${first}\nusage: ${help.usage}\nrun contract-gate ${name} --help for every option`;
}

function unknownOption(given: string, options: readonly string[]): string {
  const word = given.replace(/^--?/, '').replace(/=.*$/s, '');
  const suggestion = didYouMean(word, [...options, 'help']);
  return `unknown option '${given}'${suggestion === undefined ? '' : `; did you mean '--${suggestion}'?`}`;
}

function optionRow(name: string, spec: OptionHelp): readonly [string, string] {
  const flag = `${spec.short === undefined ? '' : `-${spec.short}, `}--${name}${spec.type === 'string' ? ` ${spec.value ?? '<value>'}` : ''}`;
  const fallback = spec.defaultText ?? (typeof spec.default === 'string' ? spec.default : undefined);
  return [flag, fallback === undefined ? spec.help : `${spec.help} (default: ${fallback})`];
}

/** Two columns; a long left column puts its description on the next line rather than squeezing it. */
function table(rows: readonly (readonly [string, string])[]): string {
  const width = Math.min(28, Math.max(...rows.map(([left]) => left.length)));
  return rows.map(([left, right]) => (left.length > width ? `  ${left}\n  ${' '.repeat(width)}  ${right}` : `  ${left.padEnd(width)}  ${right}`)).join('\n');
}

