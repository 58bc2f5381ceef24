import { didYouMean } from '../contract/did-you-mean.js';
import { GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { describeArgumentError, formatCommandHelp, formatOverview } from './format-help.js';
import { packageVersion } from './package-version.js';
import { adviseStorageFailure } from './storage-advice.js';
import { COMMAND_HELP, isCommandName, type CommandName } from './usage.js';

export type Command = (args: string[], io: CliIo) => Promise<number>;

/** Loaded on demand: a command pays only for the modules it uses, at every start. */
export const COMMANDS: Partial<Record<CommandName, () => Promise<Command>>> = {
  validate: async () => (await import('./validate-command.js')).validateCommand,
  lint: async () => (await import('./lint-command.js')).lintCommand,
  demo: async () => (await import('./demo-command.js')).demoCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
  drop: async () => (await import('./drop-command.js')).dropCommand,
  probe: async () => (await import('./probe-command.js')).probeCommand,
  redrive: async () => (await import('./redrive-command.js')).redriveCommand,
  release: async () => (await import('./release-command.js')).releaseCommand,
  audit: async () => (await import('./audit-command.js')).auditCommand,
  publish: async () => (await import('./publish-command.js')).publishCommand,
  diff: async () => (await import('./diff-command.js')).diffCommand,
  'check-compat': async () => (await import('./check-compat-command.js')).checkCompatCommand,
  replay: async () => (await import('./replay-command.js')).replayCommand,
  status: async () => (await import('./status-command.js')).statusCommand,
  export: async () => (await import('./export-command.js')).exportCommand,
  infer: async () => (await import('./infer-command.js')).inferCommand,
  import: async () => (await import('./import-command.js')).importCommand,
};

const VERSION_WORDS = new Set(['--version', '-V', 'version']);

/** Runs one CLI invocation and returns its exit code; never calls process.exit itself. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return printHelp(args[0], io, name === undefined);
  if (VERSION_WORDS.has(name)) {
    io.stdout(`contract-gate ${await packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = isCommandName(name) ? name : undefined;
  // Help is answered from the table, before the command (and what it imports) is loaded.
  if (command && wantsHelp(args)) return printHelp(command, io, false);
  const load = command && COMMANDS[command];
  if (!command || !load) {
    io.stderr(unknownCommand(name));
    return EXIT.cannotProceed;
  }
  try {
    return await (await load())(args, io);
  } catch (error) {
    io.stderr(`contract-gate ${name}: ${await describeFailure(error, command, args)}\n`);
    return EXIT.cannotProceed;
  }
}

/** A near miss is answered with the command meant, in one line; anything else with the overview. */
function unknownCommand(name: string): string {
  const meant = didYouMean(name, [...Object.keys(COMMAND_HELP), 'help']);
  const how = meant === 'help' ? '' : ` (contract-gate ${meant} --help shows how to run it)`;
  if (meant !== undefined) return `contract-gate: unknown command "${name}"; did you mean ${meant}?${how}\n`;
  return `contract-gate: unknown command "${name}"\n\n${formatOverview()}`;
}

/** `-h` or `--help` anywhere before a `--`, which ends the options. */
function wantsHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** With no arguments at all the overview is an error (exit 2); asked for, it is an answer. */
function printHelp(topic: string | undefined, io: CliIo, asError: boolean): number {
  if (topic !== undefined && !isCommandName(topic)) {
    const meant = didYouMean(topic, Object.keys(COMMAND_HELP));
    io.stderr(meant === undefined ? `contract-gate: no help for "${topic}", which is no command\n\n${formatOverview()}` : `contract-gate: no help for "${topic}", which is no command; did you mean contract-gate help ${meant}?\n`);
    return EXIT.cannotProceed;
  }
  io.stdout(topic === undefined ? formatOverview() : formatCommandHelp(topic));
  return asError ? EXIT.cannotProceed : EXIT.ok;
}

async function describeFailure(error: unknown, name: CommandName, args: readonly string[]): Promise<string> {
  const storage = await adviseStorageFailure(error, { name, args });
  if (storage !== undefined) return storage;
  if (error instanceof GateError) return error.message;
  return describeArgumentError(error, name) ?? `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
