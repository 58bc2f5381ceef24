/**
 * Every command's help in one table: usage line, description, operands, options, exit codes.
 * Kept apart from the command modules so `<command> --help` prints without loading them (each
 * command is imported only when it runs). A command passes its `options` entry straight to
 * parseArgs, so what it accepts and what its help lists are one list; parseArgs ignores the
 * extra `help`, `value` and `defaultText` keys.
 */
export interface OptionHelp {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean;
  readonly short?: string;
  readonly default?: string | boolean;
  /** The value's placeholder in help, e.g. `<file>` or `text|json`. */
  readonly value?: string;
  readonly help: string;
  /** The default as help states it, when it is worked out at run time rather than by parseArgs. */
  readonly defaultText?: string;
}

export interface CommandHelp {
  readonly usage: string;
  readonly summary: string;
  /** Positional operands and what they are. */
  readonly operands: readonly (readonly [string, string])[];
  readonly options: Readonly<Record<string, OptionHelp>>;
  readonly exits: readonly (readonly [number, string])[];
}

const NOW = { type: 'string', value: '<ISO-8601>', help: 'pin the check time, e.g. 2026-11-30T06:00:00Z, so a run repeats exactly', defaultText: 'the wall clock' } as const;
const CONTRACTS_DIR = { type: 'string', default: './contracts', value: '<dir>', help: 'the directory of contract files' } as const;
const BUCKET = { type: 'string', default: 'lake', value: '<name>', help: 'the lake bucket' } as const;
const ENDPOINT = { type: 'string', value: '<url>', help: 'an S3-compatible endpoint, e.g. the one `serve` prints', defaultText: 'AWS S3' } as const;
/** For ODCS contracts, which may not say whom to page or the file format. */
const ODCS_DEFAULTS = {
  'default-notify': { type: 'string', value: '<email,...>', help: 'whom to page when an ODCS contract names no one; without it, that is an error', defaultText: 'none' },
  'default-format': { type: 'string', value: 'parquet|csv|jsonl', help: 'the data format when an ODCS contract names none; without it, that is an error', defaultText: 'none' },
} as const;
/** Where a new major's migration document is looked for: check-compat and publish alike. */
const MIGRATIONS = { type: 'string', value: '<dir>', help: 'where the migration documents <name>_v<N>_to_v<N+1>.md are; a new major without a complete one is refused', defaultText: '<dir>/migrations, beside the contracts' } as const;
const CANNOT_RUN = 'the run cannot proceed: bad arguments, an unreadable or invalid contract, a missing path';

export const COMMAND_HELP = {
  validate: {
    usage: 'contract-gate validate --contract <file> <path>... [--format text|json|junit|html] [--out <file>] [--now <ISO-8601>] [--workers N] [--strict] [--partition <path>] [--history <lake>]',
    summary: 'check a partition (files or directories) against a contract',
    operands: [['<path>...', 'data files, or directories whose files (not _* or .*) make up the partition']],
    options: {
      contract: { type: 'string', value: '<file>', help: 'the contract to check against (required)' },
      format: { type: 'string', default: 'text', value: 'text|json|junit|html', help: 'the report: for a log, the JSON report, JUnit XML for a CI test view, or one self-contained HTML page' },
      out: { type: 'string', value: '<file>', help: 'write the report to this file and print only its headline', defaultText: 'stdout' },
      now: NOW,
      workers: { type: 'string', value: 'N', help: 'threads to check with; 0 or 1 checks in one thread', defaultText: 'one per CPU when the footers leave 8M values or more to decode, else one' },
      history: { type: 'string', value: '<lake>', help: 'read published data for volume_vs_history and references from a lake: the directory `serve --dir` keeps, a directory laid out like the bucket, or s3://<bucket>[/<prefix>]', defaultText: 'none: those rules are not checked' },
      strict: { type: 'boolean', help: 'treat every warning as an error: a warn rule that fails makes the exit code 1' },
      partition: { type: 'string', value: '<path>', help: 'the partition being checked, e.g. dt=2026-11-30: freshness and not_in_future are judged as of its due time when that came first; its volume history with --history', defaultText: 'the segments of the validated paths that fit the partition template' },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'the contract holds'], [1, 'the contract is violated'], [2, CANNOT_RUN]],
  },
  lint: {
    usage: 'contract-gate lint <contract>... [--format text|github]',
    summary: 'check contract files alone and list every problem with file:line:column',
    operands: [['<contract>...', 'contract files, native or ODCS v3']],
    options: {
      format: { type: 'string', default: 'text', value: 'text|github', help: 'problems as lines, or as GitHub Actions ::error/::warning annotations' },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'every contract loads (warnings allowed)'], [2, 'a contract has errors or cannot be read']],
  },
  serve: {
    usage: 'contract-gate serve [--port 4566] [--dir ./.lake] [--contracts ./contracts] [--bucket lake] [--demo] [--now <ISO-8601>]',
    summary: 'run the whole gate locally: an S3-compatible endpoint whose _READY markers run the gate',
    operands: [],
    options: {
      port: { type: 'string', default: '4566', value: '<port>', help: 'the port on 127.0.0.1 (0: any free port)' },
      dir: { type: 'string', default: './.lake', value: '<dir>', help: 'where the lake, its reports and notifications are kept' },
      contracts: CONTRACTS_DIR,
      bucket: BUCKET,
      demo: { type: 'boolean', default: false, help: 'first drop the shipped good and bad example partitions and show what the gate did' },
      now: { ...NOW, help: "pin the gate's clock, e.g. 2026-11-30T06:00:00Z" },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'stopped with Ctrl-C or SIGTERM'], [2, 'cannot start: a bad port, an unwritable --dir']],
  },
  drop: {
    usage: 'contract-gate drop --contract <file> [--contract <file>] <local dir> [<local dir>] --to s3://<bucket>[/<prefix>/] [--endpoint <url>] [--registry _contracts/|none] [--no-wait] [--timeout 15m] [--format text|json]',
    summary: "upload a partition's data files, then its _READY manifest (what a producer job calls); two contracts and directories make a linked (dual-write) drop",
    operands: [['<local dir>', 'the partition directory, named after its partition, e.g. .../dt=2026-11-30; one per --contract, in the same order']],
    options: {
      contract: { type: 'string', multiple: true, value: '<file>', help: 'the contract of the dataset (required); twice (v1 and v2) for a linked drop: both partitions are published only if both pass' },
      to: { type: 'string', value: 's3://<bucket>[/<prefix>/]', help: "the bucket; a prefix overrides the layout's staging prefix (required)" },
      endpoint: ENDPOINT,
      registry: { type: 'string', default: '_contracts/', value: '<prefix>|none', help: "the gate's contract registry on the bucket, checked for the contract before anything is uploaded; none for a gate that ships bundled contracts" },
      wait: { type: 'boolean', help: "wait for the gate's decision", defaultText: 'wait' },
      'no-wait': { type: 'boolean', help: 'return once the _READY manifest is uploaded' },
      // Long enough for a big partition on a busy gate; a scheduler's own task timeout is usually longer.
      timeout: { type: 'string', default: '15m', value: '<duration>', help: 'how long to wait for the decision, e.g. 90s, 15m, 1h' },
      format: { type: 'string', default: 'text', value: 'text|json', help: 'the outcome as a line or as JSON' },
    },
    exits: [[0, 'published (with --no-wait: uploaded)'], [1, 'quarantined or refused by the gate'], [2, 'bad input (no contract registered, files not in produces.format) or an upload error'], [3, 'no decision within the timeout']],
  },
  publish: {
    usage: 'contract-gate publish [<contract or dir>...] --to s3://<bucket>[/<registry prefix>/] [--endpoint <url>] [--migrations <dir>] [--by <who>] [--now <ISO-8601>] [--format text|json]',
    summary: "register contract files on the gate's bucket, refusing a change that needs a bigger version bump than it declares",
    operands: [['<contract or dir>...', 'contract files, or directories whose *.yaml files directly in them are contracts (default: ./contracts)']],
    options: {
      to: { type: 'string', value: 's3://<bucket>[/<prefix>/]', help: "the gate's bucket; the registry prefix defaults to _contracts/ (required)" },
      endpoint: ENDPOINT,
      migrations: { ...MIGRATIONS, help: `${MIGRATIONS.help}; a complete one is stored beside the version, its SHA-256 in the pointer`, defaultText: "migrations/ beside each contract file" },
      by: { type: 'string', value: '<who>', help: 'who registers, kept in the pointer', defaultText: 'not recorded' },
      now: { ...NOW, help: "today for a new major's migration document (the old major's sunset must be after it) and the pointer's registered_at, e.g. 2026-11-30T06:00:00Z" },
      format: { type: 'string', default: 'text', value: 'text|json', help: 'a line per file, or the outcomes as JSON' },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'every file is registered or was already'], [1, 'a file was refused: a bigger bump needed, a registered version rewritten, a new major outside a file of its own or without a complete migration document, or it does not load'], [2, CANNOT_RUN]],
  },
  redrive: {
    usage: 'contract-gate redrive s3://<bucket>/quarantine/<name>/v<major>/<partition>/<attempt>/ [--endpoint <url>] [--by <who>] [--reason <text>] [--format text|json]',
    summary: "put a quarantined attempt's files back into staging, then a _READY, so the current contract judges it again",
    operands: [['s3://<bucket>/quarantine/.../<attempt>/', 'the quarantine attempt folder (the one its _REPORT.json is in); it stays where it is']],
    options: {
      endpoint: ENDPOINT,
      by: { type: 'string', value: '<who>', help: 'who redrives it, for the audit record', defaultText: "the caller's ARN from STS; at --endpoint, the local user" },
      reason: { type: 'string', value: '<text>', help: 'why, for the audit record', defaultText: 'none' },
      format: { type: 'string', default: 'text', value: 'text|json', help: 'the outcome as lines or as JSON' },
    },
    exits: [[0, 'redriven, or already redriven'], [1, 'refused: published since by a newer drop, or staging holds a drop'], [2, 'cannot run: not a quarantine attempt folder, no _REPORT.json, a storage error']],
  },
  audit: {
    usage: 'contract-gate audit verify s3://<bucket>[/<prefix>] [--dataset <name>] [--partition <path>] [--endpoint <url>] [--format text|json]',
    summary: "check the owners' audit trail: each partition's chain of release and redrive records, for a record rewritten, deleted or out of place",
    operands: [['verify', 'the action (the only one)'], ['s3://<bucket>[/<prefix>]', "the gate's lake; records are under _audit/"]],
    options: {
      dataset: { type: 'string', value: '<name>', help: 'only the chains of this dataset', defaultText: 'every dataset' },
      partition: { type: 'string', value: '<path>', help: 'only the chains of this partition, e.g. dt=2026-11-30', defaultText: 'every partition' },
      endpoint: ENDPOINT,
      format: { type: 'string', default: 'text', value: 'text|json', help: 'each break as lines, or the verdict as JSON' },
    },
    exits: [[0, 'every chain is intact'], [1, 'a chain is broken: a record rewritten, deleted or not where it says'], [2, CANNOT_RUN]],
  },
  release: {
    usage: 'contract-gate release s3://<bucket>/quarantine/<name>/v<major>/<partition>/<attempt>/ --reason <text> [--by <who>] [--endpoint <url>] [--topic-arn <arn> | --notifications <file>] [--format text|json]',
    summary: "publish a quarantined attempt as it is, by the owner's decision: _SUCCESS and the notice say who released it and why",
    operands: [['s3://<bucket>/quarantine/.../<attempt>/', 'the quarantine attempt folder (the one its _REPORT.json is in); it stays where it is']],
    options: {
      reason: { type: 'string', value: '<text>', help: 'why it is published although its checks failed (required)' },
      by: { type: 'string', value: '<who>', help: 'who releases it (required with --endpoint)', defaultText: "the caller's ARN from STS" },
      endpoint: ENDPOINT,
      'topic-arn': { type: 'string', value: '<arn>', help: "the gate's SNS topic, to notify the owner (required without --endpoint)" },
      notifications: { type: 'string', value: '<file>', help: 'with --endpoint, append the notice to this JSON Lines file', defaultText: './.lake/notifications.jsonl, as serve keeps it' },
      format: { type: 'string', default: 'text', value: 'text|json', help: 'the outcome as lines or as JSON' },
    },
    exits: [[0, 'released, or already released'], [1, 'refused: published since by a newer drop, or a quarantined file changed'], [2, 'cannot run: not a quarantine attempt folder, no _REPORT.json, no --reason, no --by at --endpoint']],
  },
  probe: {
    usage: 'contract-gate probe [--now <ISO-8601>] [--format text|json] [--contracts ./contracts] [--bucket lake] [--dir ./.lake | --endpoint <url> | --aws] [--topic-arn <arn> | --notifications <file>] [--dry-run]',
    summary: 'run the clock SLA probe once: list the due partitions and their state',
    operands: [],
    options: {
      now: NOW,
      format: { type: 'string', default: 'text', value: 'text|json', help: 'the probe report as lines or as JSON' },
      contracts: CONTRACTS_DIR,
      bucket: { type: 'string', value: '<name>', help: 'the lake bucket', defaultText: 'lake' },
      dir: { type: 'string', value: '<dir>', help: 'the lake `serve --dir` keeps, through the running serve or on its files', defaultText: './.lake' },
      endpoint: { type: 'string', value: '<url>', help: 'probe the lake at this S3-compatible endpoint instead' },
      aws: { type: 'boolean', default: false, help: 'probe the lake bucket on AWS S3 instead' },
      'topic-arn': { type: 'string', value: '<arn>', help: 'page through this SNS topic', defaultText: 'the --notifications file' },
      notifications: { type: 'string', value: '<file>', help: 'append pages to this JSON Lines file', defaultText: '<dir>/notifications.jsonl' },
      'dry-run': { type: 'boolean', default: false, help: 'print what it would page, send nothing' },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'no due partition is missed'], [1, 'a due partition is missed'], [2, 'the probe cannot run']],
  },
  diff: {
    usage: 'contract-gate diff <old contract> <new contract> [--format text|json] [--migration-skeleton <file>]',
    summary: 'classify the changes between two versions and judge the version bump',
    operands: [['<old contract> <new contract>', 'two versions of one contract, the old one first']],
    options: {
      format: { type: 'string', default: 'text', value: 'text|json', help: 'the changes as lines or as JSON' },
      'migration-skeleton': { type: 'string', value: '<file>', help: 'for a new major, also write its migration document to start from (e.g. contracts/migrations/<name>_v1_to_v2.md, never over a file): the breaking changes and the sunset filled in, TODO(migration) where a human writes', defaultText: 'none' },
    },
    exits: [[0, 'the declared bump is enough'], [1, 'the declared bump is too small'], [2, `${CANNOT_RUN}, a --migration-skeleton file that exists`]],
  },
  'check-compat': {
    usage: 'contract-gate check-compat [--base <git-ref>] [--migrations <dir>] [--now <ISO-8601>] [--format text|junit|github] [<dir>]',
    summary: 'judge every contract file changed since a git base (what CI runs)',
    operands: [['<dir>', 'the contract directory, inside a git work tree (default: contracts)']],
    options: {
      base: { type: 'string', value: '<git-ref>', help: 'compare with the merge-base of HEAD and this ref', defaultText: 'origin/main or main, else HEAD~1' },
      migrations: MIGRATIONS,
      now: { ...NOW, help: "today for a new major's migration document: the old major's sunset must be after it, e.g. 2026-11-30T06:00:00Z" },
      format: { type: 'string', default: 'text', value: 'text|junit|github', help: 'verdicts as lines, JUnit XML, or GitHub Actions annotations' },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'every changed contract passes'], [1, 'a changed contract fails'], [2, 'cannot run: not a git work tree, an unknown --base']],
  },
  replay: {
    usage: 'contract-gate replay --contract <file> --from s3://<bucket> [--endpoint <url>] [--last N | --since <date>] [--now <ISO-8601>] [--quarantined] [--format text|json]',
    summary: 'judge what the gate decided recently by a proposed contract, read-only: which published partitions it would have quarantined, and why',
    operands: [],
    options: {
      contract: { type: 'string', value: '<file>', help: 'the proposed contract; its name and major version say which partitions (required)' },
      from: { type: 'string', value: 's3://<bucket>', help: 'the lake bucket, laid out as the gate keeps it (required)' },
      endpoint: ENDPOINT,
      last: { type: 'string', value: 'N', help: "partitions of today and the N days before (UTC), each placed by the {ds} of its path (the contract's partition template), or by _SUCCESS decided_at when the path does not fit", defaultText: '7, when --since is not given' },
      since: { type: 'string', value: '<date>', help: 'partitions from this day (YYYY-MM-DD, UTC) or timestamp on, instead of --last' },
      now: { ...NOW, help: 'what "today" is for --last, e.g. 2026-11-30T06:00:00Z; each partition is judged as of its own decision time regardless' },
      quarantined: { type: 'boolean', default: false, help: "also replay the quarantined attempts' files; they never change the exit code" },
      format: { type: 'string', default: 'text', value: 'text|json', help: 'a table and a summary for a terminal, or one JSON object for CI' },
      ...ODCS_DEFAULTS,
    },
    exits: [
      [0, 'every published partition would still be published'],
      [1, 'a published partition would now be quarantined'],
      [2, 'cannot run: bad arguments, an unreadable contract, an unreachable bucket, no partition of the dataset there, or a published file that is no longer the one its _SUCCESS lists'],
    ],
  },
  status: {
    usage: 'contract-gate status [--from <lake>] --out <file> [--endpoint <url>] [--contracts <dir>] [--link-base <url>] [--now <ISO-8601>]',
    summary: "write the lake's status page: per dataset version the last 30 partitions (published, with warnings, quarantined, missed SLA, in staging), row counts and the last 50 notifications",
    operands: [],
    options: {
      from: { type: 'string', default: './.lake', value: '<lake>', help: 'the lake: the directory `serve --dir` keeps, a directory laid out like the bucket, or s3://<bucket>[/<prefix>]' },
      out: { type: 'string', value: '<file>', help: 'where to write the page (required)' },
      endpoint: ENDPOINT,
      contracts: { type: 'string', value: '<dir>', help: "contract files for the row-count bands and SLA calendars of datasets the lake's registry lacks", defaultText: "the lake's registry only" },
      'link-base': { type: 'string', value: '<url>', help: 'link each key as <url>/<key> (a website or CloudFront in front of the bucket)', defaultText: 'the S3 console for s3://, the running serve for its directory, relative files for a directory' },
      now: { ...NOW, help: 'the clock that decides missed and not yet due, e.g. 2026-11-30T06:00:00Z' },
      ...ODCS_DEFAULTS,
    },
    exits: [[0, 'written'], [2, 'cannot run: bad arguments, an unreachable lake, an unwritable --out']],
  },
  export: {
    // The targets are EXPORT_TARGETS of lib/export/export-contract.ts, spelled out so help does not load the exporters.
    usage: 'contract-gate export <contract> --to odcs|jsonschema|dbt|sql [--out <file>] [--location s3://<bucket>/<prefix>/] [--adapter ansi|snowflake|bigquery|postgres|redshift|duckdb|athena|databricks] [--check <schema.yml> | --write <schema.yml>]',
    summary: 'write the contract as ODCS v3.1 YAML, a JSON Schema for one row, a dbt schema.yml, or Athena DDL',
    operands: [['<contract>', 'the contract file']],
    options: {
      to: { type: 'string', value: 'odcs|jsonschema|dbt|sql', help: 'the format to write (required)' },
      out: { type: 'string', value: '<file>', help: 'write to this file', defaultText: 'stdout' },
      location: { type: 'string', value: 's3://<bucket>/<prefix>/', help: "the published table's location, for --to dbt and sql" },
      // The adapters are DBT_ADAPTERS of lib/export/dbt-adapters.ts.
      adapter: { type: 'string', value: 'ansi|snowflake|bigquery|postgres|redshift|duckdb|athena|databricks', help: "for --to dbt: the warehouse whose type names data_type uses", defaultText: 'ansi (SQL-standard names)' },
      check: { type: 'string', value: '<schema.yml>', help: 'for --to dbt: compare the model and source table the export owns in this committed file with the contract; exit 1 with a diff and the command to regenerate when they differ (what you added outside them is ignored)' },
      write: { type: 'string', value: '<schema.yml>', help: 'for --to dbt: write the export into this file, replacing only the model and source table it owns and keeping the rest' },
    },
    exits: [[0, 'written, or (--check) the file is up to date'], [1, '--check: the file differs from what the contract generates, or does not exist'], [2, 'cannot export: bad arguments, an invalid contract, an unreadable --check/--write file, an unwritable --out']],
  },
  demo: {
    usage: 'contract-gate demo',
    summary: 'validate the good and the bad example partitions shipped in contracts/examples',
    operands: [],
    options: {},
    exits: [[0, 'every example was validated, whatever its verdict'], [2, 'the examples cannot be read']],
  },
  infer: {
    usage: 'contract-gate infer <partition>... [--name <dataset>] [--major N] [--enum-max N] [--out <dir>]',
    summary: 'propose a contract from sample partitions',
    operands: [['<partition>...', 'partition directories or data files to learn from']],
    options: {
      name: { type: 'string', value: '<dataset>', help: 'the dataset name', defaultText: "from the partitions' path" },
      major: { type: 'string', value: 'N', help: 'the major version of the proposed contract', defaultText: '1' },
      'enum-max': { type: 'string', value: 'N', help: 'a string column with at most N distinct values is proposed as an enum', defaultText: '20 (and at least 10 values per distinct one)' },
      out: { type: 'string', value: '<dir>', help: 'write <name>.v<major>.yaml into this directory', defaultText: 'stdout' },
    },
    exits: [[0, 'written'], [2, 'the partitions cannot be read']],
  },
  import: {
    usage: 'contract-gate import [--from auto|dbt|jsonschema|pipeline-post|lesson|skill|duckdb-post|course] <file> [--model <name>] [--out <dir>]',
    summary: 'convert another contract format to a native contract',
    operands: [['<file>', 'the document to convert']],
    options: {
      from: { type: 'string', default: 'auto', value: 'auto|dbt|jsonschema|pipeline-post|lesson|skill|duckdb-post|course', help: 'the format of <file>; auto tells it from the content' },
      model: { type: 'string', value: '<name>', help: 'the model to convert, when the file holds several (dbt)' },
      out: { type: 'string', value: '<dir>', help: 'write <name>.v<major>.yaml into this directory, never over a file', defaultText: 'stdout' },
      'default-notify': { type: 'string', value: '<email,...>', help: 'whom to page, when the source names no one', defaultText: 'a TODO placeholder' },
      'default-format': { type: 'string', value: 'parquet|csv|jsonl', help: 'the data format, when the source names none', defaultText: 'parquet, with a TODO' },
    },
    exits: [[0, 'written; what did not carry over is warned about on stderr'], [2, 'cannot convert']],
  },
} as const satisfies Record<string, CommandHelp>;

export type CommandName = keyof typeof COMMAND_HELP;

export function isCommandName(name: string): name is CommandName {
  return Object.hasOwn(COMMAND_HELP, name);
}

export const VALIDATE_USAGE = COMMAND_HELP.validate.usage;
export const SERVE_USAGE = COMMAND_HELP.serve.usage;
export const DROP_USAGE = COMMAND_HELP.drop.usage;
export const PROBE_USAGE = COMMAND_HELP.probe.usage;
export const DIFF_USAGE = COMMAND_HELP.diff.usage;
export const CHECK_COMPAT_USAGE = COMMAND_HELP['check-compat'].usage;
export const EXPORT_USAGE = COMMAND_HELP.export.usage;
export const LINT_USAGE = COMMAND_HELP.lint.usage;
export const REDRIVE_USAGE = COMMAND_HELP.redrive.usage;
export const RELEASE_USAGE = COMMAND_HELP.release.usage;
export const AUDIT_USAGE = COMMAND_HELP.audit.usage;
export const PUBLISH_USAGE = COMMAND_HELP.publish.usage;
export const STATUS_USAGE = COMMAND_HELP.status.usage;
