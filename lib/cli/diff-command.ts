import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { diffContracts } from '../compat/diff-contracts.js';
import { formatDiffText } from '../compat/format-diff.js';
import { PLACEHOLDER, type MigrationInput } from '../compat/migration-document.js';
import { migrationSkeleton } from '../compat/migration-skeleton.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import { GateError } from '../errors.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadContractFile } from './contract-file.js';
import { COMMAND_HELP, DIFF_USAGE } from './usage.js';

/** `diff`: classifies the changes between two contract versions and judges the declared bump. */
export async function diffCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.diff.options });
  const [oldPath, newPath, ...rest] = positionals;
  if (oldPath === undefined || newPath === undefined || rest.length > 0) throw new GateError('bad_arguments', `name exactly two contract files, the old version first\nusage: ${DIFF_USAGE}`);
  const format = values.format;
  if (format !== 'text' && format !== 'json') throw new GateError('bad_arguments', `--format must be text or json, not "${format}"`);
  const [old, next] = await loadBoth(oldPath, newPath, io.stderr);
  const diff = diffContracts(old, next);
  const skeleton = values['migration-skeleton'];
  if (skeleton !== undefined) await writeSkeleton(skeleton, { old, next, diff }, io);
  const title = `${next.name}: ${oldPath} (${old.version.text}) → ${newPath} (${next.version.text}), compat.mode ${next.compat.mode}`;
  io.stdout(format === 'json' ? `${JSON.stringify(diff, null, 2)}\n` : formatDiffText(diff, title));
  return diff.ok ? EXIT.ok : EXIT.violated;
}

/**
 * `--migration-skeleton <file>`: only for a new major, and only where no document is yet (`wx`),
 * so one a human has written is never replaced by a fresh skeleton.
 */
async function writeSkeleton(path: string, input: MigrationInput, io: CliIo): Promise<void> {
  const { old, next } = input;
  if (next.version.major <= old.version.major) {
    throw new GateError('bad_arguments', `--migration-skeleton is for a new major: ${next.name} ${next.version.text} is not a major above ${old.version.text}, and a minor or patch needs no migration document`);
  }
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, migrationSkeleton(input), { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
    const why = error.code === 'EEXIST' ? 'it exists already; not overwritten (move it away, or name another file)' : `cannot write it: ${error.message}`;
    throw new GateError('path_not_found', `--migration-skeleton ${path}: ${why}`, { cause: error, context: { path } });
  });
  io.stderr(`wrote the migration skeleton ${path}: replace each ${PLACEHOLDER} before check-compat or publish\n`);
}

/** Loads both before failing, so one run lists the problems of both files. */
async function loadBoth(oldPath: string, newPath: string, warn: (text: string) => void): Promise<[Contract, Contract]> {
  const loaded = await Promise.all([oldPath, newPath].map(async (path) => ({ path, ...(await loadContractFile(path)) })));
  const invalid = loaded.filter((l) => !l.contract);
  if (invalid.length > 0) {
    const text = invalid.map((l) => `${l.path} is not a valid contract:\n${l.problems.map(formatProblem).join('\n')}`).join('\n');
    throw new GateError('contract_invalid', text, { context: { paths: invalid.map((l) => l.path) } });
  }
  const warnings = loaded.flatMap((l) => l.problems.map(formatProblem));
  if (warnings.length) warn(`${warnings.join('\n')}\n`);
  const [old, next] = loaded.map((l) => l.contract);
  if (!old || !next) throw new GateError('internal', 'a loaded contract went missing');
  return [old, next];
}
