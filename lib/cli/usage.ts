/**
 * The usage line of each command, kept apart from the command modules so run-cli can print its
 * help without loading them (each command is imported only when it runs).
 */
export const VALIDATE_USAGE = 'contract-gate validate --contract <file> <path>... [--format text|json] [--now <ISO-8601>] [--workers N]';
export const SERVE_USAGE = 'contract-gate serve [--port 4566] [--dir ./.lake] [--contracts ./contracts] [--bucket lake] [--demo]';
export const DROP_USAGE = 'contract-gate drop --contract <file> <local dir> --to s3://<bucket>[/<prefix>/] [--endpoint <url>]';
export const PROBE_USAGE = 'contract-gate probe [--now <ISO-8601>] [--format text|json] [--contracts ./contracts] [--bucket lake] [--endpoint <url> | --dir <local lake>] [--topic-arn <arn> | --notifications <file>]';
export const DIFF_USAGE = 'contract-gate diff <old contract> <new contract> [--format text|json]';
export const CHECK_COMPAT_USAGE = 'contract-gate check-compat [--base <git-ref>] [<dir>]';
/** The targets are EXPORT_TARGETS of lib/export/export-contract.ts, spelled out so help does not load the exporters. */
export const EXPORT_USAGE = 'contract-gate export <contract> --to odcs|jsonschema|dbt|sql [--out <file>] [--location s3://<bucket>/<prefix>/]';
