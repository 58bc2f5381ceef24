import { execFile } from 'node:child_process';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { checkContractFiles, isContractFileName, type FileVerdict } from '../compat/check-contract-files.js';
import { formatCheckText } from '../compat/format-check.js';
import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import { GateError } from '../errors.js';
import { compatAnnotations } from '../report/compat-annotations.js';
import { compatJunit } from '../report/compat-junit.js';
import { formatAnnotations } from '../report/github-annotations.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadOptionsFrom } from './load-options.js';
import { parseNow } from './parse-now.js';
import { CHECK_COMPAT_USAGE, COMMAND_HELP } from './usage.js';

const run = promisify(execFile);

/** Runs git in `dir`; resolves stdout, or undefined when git ran and said no (a missing ref). */
type Git = (args: string[]) => Promise<string | undefined>;

interface Base {
  readonly commit: string;
  readonly description: string;
}

const FORMATS = ['text', 'junit', 'github'] as const;
type Format = (typeof FORMATS)[number];

/** What every output format is made from. */
interface CompatRun {
  readonly dir: string;
  readonly title: string;
  readonly verdicts: readonly FileVerdict[];
  readonly head: ReadonlyMap<string, string>;
  readonly options: LoadOptions;
  readonly git: Git;
}

/** `check-compat`: judges every contract file in `dir` that differs from a git base. */
export async function checkCompatCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP['check-compat'].options });
  if (positionals.length > 1) throw new GateError('bad_arguments', `name at most one contract directory\nusage: ${CHECK_COMPAT_USAGE}`);
  const format = FORMATS.find((f) => f === values.format);
  if (!format) throw new GateError('bad_arguments', `--format must be one of ${FORMATS.join(', ')}, not "${values.format}"`);
  const options = loadOptionsFrom(values);
  const now = parseNow(values.now);
  const dir = positionals[0] ?? 'contracts';
  await requireDirectory(dir);
  const git = gitIn(dir);
  if ((await git(['rev-parse', '--is-inside-work-tree']))?.trim() !== 'true') {
    throw new GateError('precondition_failed', `${dir} is not inside a git work tree: check-compat compares contracts with a git base`, { context: { dir } });
  }
  const base = await resolveBase(git, values.base);
  const [baseFiles, headFiles] = await Promise.all([readBaseFiles(git, base.commit), readHeadFiles(dir)]);
  const migrations = await readMigrations(values.migrations ?? join(dir, 'migrations'));
  const verdicts = checkContractFiles({ dir, base: baseFiles, head: headFiles, options, migrations, now });
  const title = `check-compat ${dir} against ${base.description}`;
  io.stdout(await formatRun({ dir, title, verdicts, head: headFiles, options, git }, format));
  return verdicts.every((v) => v.ok) ? EXIT.ok : EXIT.violated;
}

async function formatRun(run: CompatRun, format: Format): Promise<string> {
  if (format === 'text') return formatCheckText(run.verdicts, run.title);
  if (format === 'junit') return compatJunit(run.verdicts, run.dir, run.title);
  // Annotations name files from the repository root, as the pull request shows them.
  const prefix = (await must(run.git, ['rev-parse', '--show-prefix'])).trim();
  return formatAnnotations(run.verdicts.flatMap((verdict) => {
    const text = run.head.get(verdict.file);
    const path = `${prefix}${verdict.file}`;
    const problems = text === undefined ? [] : parseContract(text, path, run.options).problems;
    return compatAnnotations({ verdict, path, problems, ...(text === undefined ? {} : { text }) });
  }));
}

async function requireDirectory(dir: string): Promise<void> {
  const info = await stat(dir).catch(() => undefined);
  if (!info?.isDirectory()) throw new GateError('path_not_found', `${dir}: no such contract directory`, { context: { dir } });
}

/** A non-zero exit is an answer (no such ref, not a repository); a git that cannot start is an error. */
function gitIn(cwd: string): Git {
  return async (args) => {
    try {
      return (await run('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })).stdout;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new GateError('precondition_failed', 'git is not installed or not on the PATH', { cause: error });
      return undefined;
    }
  };
}

/** For reads of a commit already verified: failing then would silently empty the base, so it stops the run. */
async function must(git: Git, args: string[]): Promise<string> {
  const out = await git(args);
  if (out === undefined) throw new GateError('precondition_failed', `git ${args.join(' ')} failed`, { context: { args } });
  return out;
}

async function commitOf(git: Git, ref: string): Promise<string | undefined> {
  return (await git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${ref}^{commit}`]))?.trim();
}

async function resolveBase(git: Git, ref: string | undefined): Promise<Base> {
  const head = await commitOf(git, 'HEAD');
  if (!head) throw new GateError('precondition_failed', 'the repository has no commit yet: there is no base to compare with');
  return ref === undefined ? defaultBase(git, head) : namedBase(git, ref);
}

/** Where the branch left `ref`, as a pull request shows it: changes made on `ref` since are not this branch's. */
async function namedBase(git: Git, ref: string): Promise<Base> {
  const commit = ref.startsWith('-') ? undefined : await commitOf(git, ref);
  if (!commit) {
    throw new GateError('bad_arguments', `--base "${ref}" names no commit in this repository (in CI, check out with fetch-depth: 0 so the base branch is there)`, { context: { ref } });
  }
  const fork = (await git(['merge-base', 'HEAD', commit]))?.trim();
  if (fork) return { commit: fork, description: `the merge-base of HEAD and ${ref} (${fork.slice(0, 12)})` };
  return { commit, description: `${ref} (${commit.slice(0, 12)}), which shares no history with HEAD` };
}

/**
 * On main itself the merge-base is HEAD, which would compare nothing committed: the last commit
 * is checked then. Only a first commit has no parent; its uncommitted edits are all there is.
 */
async function defaultBase(git: Git, head: string): Promise<Base> {
  let onBranch: string | undefined;
  for (const branch of ['origin/main', 'main']) {
    const fork = (await commitOf(git, branch)) && (await git(['merge-base', 'HEAD', branch]))?.trim();
    if (fork && fork !== head) return { commit: fork, description: `the merge-base of HEAD and ${branch} (${fork.slice(0, 12)}), the default base` };
    onBranch ??= fork ? branch : undefined;
  }
  const parent = await commitOf(git, 'HEAD~1');
  if (parent) return { commit: parent, description: `HEAD~1 (${parent.slice(0, 12)}), the default base ${onBranch ? `as HEAD is at ${onBranch}` : 'without origin/main or main'}` };
  if (onBranch) return { commit: head, description: `HEAD (${head.slice(0, 12)}), the default base as HEAD is at ${onBranch} and has no parent` };
  throw new GateError('precondition_failed', 'no base to compare with: no origin/main or main to branch from and HEAD has no parent; pass --base <git-ref>');
}

/** The contract files directly in the directory at the base commit; sub-directories are not contracts. */
async function readBaseFiles(git: Git, commit: string): Promise<Map<string, string>> {
  const listing = await must(git, ['ls-tree', '-z', commit, '--', '.']);
  const blobs = listing.split('\0').flatMap((entry) => {
    const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/s.exec(entry);
    return match?.[1] && match[2] && isContractFileName(match[2]) ? [{ oid: match[1], name: match[2] }] : [];
  });
  const texts = await Promise.all(blobs.map(async ({ oid, name }) => [name, await must(git, ['cat-file', 'blob', oid])] as const));
  return new Map(texts);
}

/** The migration documents as they are in the working tree, like the contracts; no directory is none written yet. */
async function readMigrations(dir: string): Promise<{ dir: string; texts: Map<string, string> }> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const names = entries.filter((e) => e.isFile() && e.name.endsWith('.md')).map((e) => e.name);
  return { dir, texts: new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const))) };
}

/** The working tree, not HEAD: run before committing, an uncommitted edit is checked too. */
async function readHeadFiles(dir: string): Promise<Map<string, string>> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isFile() && isContractFileName(e.name)).map((e) => e.name);
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)));
}
