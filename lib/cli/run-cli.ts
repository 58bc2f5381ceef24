import { GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { VALIDATE_USAGE } from './usage.js';

const USAGE = `contract-gate: make a data contract something a publish fails on

usage:
  ${VALIDATE_USAGE}
      check a partition (files or directories) against a contract; exit 0 pass, 1 violated, 2 cannot run
  contract-gate lint <contract>...
      check contract files alone; exit 0 clean, 2 with errors
  contract-gate serve [--port 4566] [--dir ./.lake] [--contracts ./contracts] [--bucket lake] [--demo]
      run the whole gate locally: an S3-compatible endpoint whose _READY markers run the gate
  contract-gate drop --contract <file> <local dir> --to s3://<bucket>[/<prefix>/] [--endpoint <url>]
      upload a partition's data files, then its _READY manifest (what a producer job calls)
  contract-gate probe [--now <ISO-8601>] [--format text|json] [--bucket lake] [--endpoint <url> | --dir <lake>]
      run the clock SLA probe once: list the due partitions and their state; exit 1 if any is missed
  contract-gate diff <old contract> <new contract> [--format text|json]
      classify the changes between two versions and judge the version bump; exit 0 enough, 1 too small, 2 cannot run
  contract-gate check-compat [--base <git-ref>] [<dir>]
      judge every contract file changed since a git base (what CI runs); exit 0 all pass, 1 any fails, 2 cannot run
  contract-gate export <contract> --to odcs|jsonschema|dbt|sql [--out <file>] [--location s3://...]
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
