import { parseContract, type LoadOptions } from '../contract/load-contract.js';
import type { Contract } from '../contract/model.js';
import { formatProblem } from '../contract/problems.js';
import type { ContractDiff } from './contract-diff.js';
import { diffContracts } from './diff-contracts.js';
import { formatVerdict } from './format-diff.js';
import { migrationFileName, migrationRefusal } from './migration-document.js';

/** A directory of contract files at the base and now, by file name. */
export interface ContractFiles {
  /** How problems name the directory, e.g. `contracts`. */
  readonly dir: string;
  readonly base: ReadonlyMap<string, string>;
  readonly head: ReadonlyMap<string, string>;
  /** Defaults for what a contract leaves out (`--default-notify`), applied to both sides alike. */
  readonly options?: LoadOptions;
  /**
   * The migration documents (`*.md`) as they are now, by file name, and how messages name their
   * directory. A new major without a good one fails. @default none, in `<dir>/migrations`
   */
  readonly migrations?: { readonly dir: string; readonly texts: ReadonlyMap<string, string> };
  /** Epoch milliseconds of the check: a new major's old-major sunset must be after it. @default dates not held against today */
  readonly now?: number;
}

export interface FileVerdict {
  readonly file: string;
  readonly state: 'added' | 'modified' | 'deleted';
  readonly ok: boolean;
  /** One line: why it passes or fails. */
  readonly reason: string;
  /** Loader problems of the file as it is now, formatted with file:line:column. */
  readonly problems: readonly string[];
  /** The diff the verdict rests on, or (for an added vN) the one against v(N-1), whose breaking changes its migration document names. */
  readonly diff?: { readonly against: string; readonly result: ContractDiff };
}

const VERSIONED = /^(.+)\.v(\d+)\.ya?ml$/;

/** Only YAML directly in the directory is a contract: the JSON Schema and `examples/` are not. */
export function isContractFileName(name: string): boolean {
  return /\.ya?ml$/.test(name) && !name.includes('/');
}

/** A verdict for every contract file that differs from the base, in file name order. */
export function checkContractFiles(files: ContractFiles): FileVerdict[] {
  const names = [...new Set([...files.base.keys(), ...files.head.keys()])].filter(isContractFileName).sort();
  return names.flatMap((name) => {
    const [before, now] = [files.base.get(name), files.head.get(name)];
    if (before === now) return [];
    if (now === undefined) return [deletedVerdict(name)];
    return [before === undefined ? addedVerdict(files, name, now) : modifiedVerdict(files, name, before, now)];
  });
}

function deletedVerdict(file: string): FileVerdict {
  return { file, state: 'deleted', ok: false, reason: 'a deleted contract is breaking: set status: retired instead of deleting, so the gate quarantines stray drops with a clear report', problems: [] };
}

function addedVerdict(files: ContractFiles, file: string, text: string): FileVerdict {
  const loaded = load(files, file, text);
  if (!loaded.contract) return { file, state: 'added', ok: false, reason: 'a new contract that does not load', problems: loaded.problems };
  const verdict: FileVerdict = { file, state: 'added', ok: true, reason: `a new contract, ${loaded.contract.name} ${loaded.contract.version.text}, that loads`, problems: loaded.problems };
  const previous = previousMajor(files, loaded.contract, file);
  if (!previous || previous.contract.name !== loaded.contract.name) return verdict;
  const result = diffContracts(previous.contract, loaded.contract);
  const refusal = migrationCheck(files, previous, file, loaded.contract, result);
  return { ...verdict, ...(refusal ? { ok: false, reason: refusal } : {}), diff: { against: previous.file, result } };
}

/** Mistake 5 of seed 001: a major bump without a migration plan beside it is refused. */
function migrationCheck(files: ContractFiles, previous: { file: string; contract: Contract }, file: string, next: Contract, diff: ContractDiff): string | undefined {
  const name = migrationFileName(next.name, previous.contract.version.major, next.version.major);
  const dir = files.migrations?.dir ?? `${files.dir}/migrations`;
  const path = `${dir}/${name}`;
  const text = files.migrations?.texts.get(name);
  const skeleton = `contract-gate diff ${files.dir}/${previous.file} ${files.dir}/${file} --migration-skeleton ${path}`;
  return migrationRefusal({ old: previous.contract, next, diff, ...(files.now === undefined ? {} : { now: files.now }) }, { path, ...(text === undefined ? {} : { text }) }, skeleton);
}

/** v(N-1) beside an added vN, as it is now or else at the base: for information only. */
function previousMajor(files: ContractFiles, contract: Contract, file: string): { file: string; contract: Contract } | undefined {
  const major = Number(VERSIONED.exec(file)?.[2] ?? 0);
  if (major < 2) return undefined;
  for (const name of [`${contract.name}.v${major - 1}.yaml`, `${contract.name}.v${major - 1}.yml`]) {
    const text = files.head.get(name) ?? files.base.get(name);
    const previous = text === undefined ? undefined : load(files, name, text).contract;
    if (previous) return { file: name, contract: previous };
  }
  return undefined;
}

function modifiedVerdict(files: ContractFiles, file: string, before: string, now: string): FileVerdict {
  const loaded = load(files, file, now);
  const base = { file, state: 'modified' as const, problems: loaded.problems };
  if (!loaded.contract) return { ...base, ok: false, reason: 'the edited contract does not load' };
  const old = load(files, file, before).contract;
  if (!old) return { ...base, ok: true, reason: 'loads; its base version did not load, so there is nothing to diff against' };
  const next = loaded.contract;
  if (old.name !== next.name) return { ...base, ok: false, reason: `the dataset name changed from "${old.name}" to "${next.name}": a new dataset is a new file, and the old one is retired` };
  const result = diffContracts(old, next);
  const diff = { against: `${file} at the base`, result };
  return { ...base, ok: result.ok, reason: modifiedReason(files, file, next, result), diff };
}

function modifiedReason(files: ContractFiles, file: string, next: Contract, result: ContractDiff): string {
  if (result.required_bump === 'major') {
    return `needs a major bump: a new major version must be a new file ${nextMajorFile(files, next)} beside ${file}, not an edit of it`;
  }
  if (result.ok || result.declared_bump === 'version_decreased') return formatVerdict(result);
  return `${formatVerdict(result)}; set version to ${suggestVersion(next, result.required_bump)}`;
}

/** The next major not yet released: v(N+1) may exist at the base when an older line is edited. */
function nextMajorFile(files: ContractFiles, next: Contract): string {
  const majors = [...files.base.keys()].map((n) => VERSIONED.exec(n)).filter((m) => m?.[1] === next.name).map((m) => Number(m?.[2]));
  return `${next.name}.v${Math.max(next.version.major, ...majors) + 1}.yaml`;
}

function suggestVersion(next: Contract, bump: ContractDiff['required_bump']): string {
  const { major, minor, patch } = next.version;
  return bump === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

function load(files: ContractFiles, file: string, text: string): { contract?: Contract; problems: string[] } {
  const { contract, problems } = parseContract(text, `${files.dir}/${file}`, files.options);
  return { contract, problems: problems.map(formatProblem) };
}
