import { GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { CHECK_COMPAT_USAGE, DIFF_USAGE, DROP_USAGE, EXPORT_USAGE, PROBE_USAGE, SERVE_USAGE, VALIDATE_USAGE } from './usage.js';

const USAGE = `contract-gate: make a data contract something a publish fails on

usage:
  ${VALIDATE_USAGE}
      check a partition (files or directories) against a contract; exit 0 pass, 1 violated, 2 cannot run
  contract-gate lint <contract>...
      check contract files alone; exit 0 clean, 2 with errors
  ${SERVE_USAGE}
      run the whole gate locally: an S3-compatible endpoint whose _READY markers run the gate
  ${DROP_USAGE}
      upload a partition's data files, then its _READY manifest (what a producer job calls)
  ${PROBE_USAGE}
      run the clock SLA probe once: list the due partitions and their state; exit 1 if any is missed
  ${DIFF_USAGE}
      classify the changes between two versions and judge the version bump; exit 0 enough, 1 too small, 2 cannot run
  ${CHECK_COMPAT_USAGE}
      judge every contract file changed since a git base (what CI runs); exit 0 all pass, 1 any fails, 2 cannot run
  ${EXPORT_USAGE}
      write the contract as ODCS v3.1 YAML, a JSON Schema for one row, a dbt schema.yml, or Athena DDL
  contract-gate demo
      validate the good and the bad example partitions shipped in contracts/examples
`;

type Command = (args: string[], io: CliIo) => Promise<number>;

/** Loaded on demand: a command pays only for the modules it uses, at every start. */
const COMMANDS: Record<string, () => Promise<Command>> = {
  validate: async () => (await import('./validate-command.js')).validateCommand,
  lint: async () => (await import('./lint-command.js')).lintCommand,
  demo: async () => (await import('./demo-command.js')).demoCommand,
  serve: async () => (await import('./serve-command.js')).serveCommand,
  drop: async () => (await import('./drop-command.js')).dropCommand,
  probe: async () => (await import('./probe-command.js')).probeCommand,
  diff: async () => (await import('./diff-command.js')).diffCommand,
  'check-compat': async () => (await import('./check-compat-command.js')).checkCompatCommand,
  export: async () => (await import('./export-command.js')).exportCommand,
};

/** Runs one CLI invocation and returns its exit code; never calls process.exit itself. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    io.stdout(USAGE);
    return name === undefined ? EXIT.cannotProceed : EXIT.ok;
  }
  const load = COMMANDS[name];
  if (!load) {
    io.stderr(`contract-gate: unknown command "${name}"\n\n${USAGE}`);
    return EXIT.cannotProceed;
  }
  try {
    return await (await load())(args, io);
  } catch (error) {
    io.stderr(`contract-gate ${name}: ${describeFailure(error)}\n`);
    return EXIT.cannotProceed;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof GateError) return error.message;
  // parseArgs reports unknown or malformed options with a code of its own.
  if (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) return error.message;
  return `internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
}
