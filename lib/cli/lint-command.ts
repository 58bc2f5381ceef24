import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { checkReferences, type LoadedContract } from '../contract/check-references.js';
import type { LoadOptions, LoadResult } from '../contract/load-contract.js';
import type { ColumnReference } from '../contract/model.js';
import { formatProblem, type ContractProblem } from '../contract/problems.js';
import { locator } from '../contract/yaml-locate.js';
import { GateError } from '../errors.js';
import { formatAnnotation, problemAnnotation } from '../report/github-annotations.js';
import { EXIT, type CliIo } from './cli-io.js';
import { loadContractFile } from './contract-file.js';
import { loadOptionsFrom } from './load-options.js';
import { COMMAND_HELP, LINT_USAGE } from './usage.js';

type Linted = LoadResult & { readonly path: string };

/** `lint`: checks contract files, and each `references` against the contract it names when lint can read it. */
export async function lintCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: COMMAND_HELP.lint.options });
  if (positionals.length === 0) throw new GateError('bad_arguments', `name at least one contract file\nusage: ${LINT_USAGE}`);
  if (values.format !== 'text' && values.format !== 'github') throw new GateError('bad_arguments', `--format must be text or github, not "${values.format}"`);
  const github = values.format === 'github';
  const options = loadOptionsFrom(values);
  const linted: Linted[] = [];
  for (const path of positionals) linted.push({ path, ...(await loadContractFile(path, options)) });
  const beside = new Beside(options, linted);
  let failed = false;
  for (const file of linted) {
    const problems = [...file.problems, ...(await referenceProblems(file, linted, beside))].sort((a, b) => a.line - b.line || a.column - b.column);
    // As annotations, problems are the output; as text they are diagnostics beside the verdicts.
    for (const problem of problems) {
      if (github) io.stdout(`${formatAnnotation(problemAnnotation(problem))}\n`);
      else io.stderr(`${formatProblem(problem)}\n`);
    }
    const ok = file.contract !== undefined && !problems.some((p) => p.severity === 'error');
    if (ok && !github) io.stdout(`ok ${file.path}: ${file.contract?.name} ${file.contract?.version.text}${problems.length ? ` (${problems.length} warnings)` : ''}\n`);
    failed ||= !ok;
  }
  return failed ? EXIT.cannotProceed : EXIT.ok;
}

/** The checks across contracts, for a file that loaded and references others. */
async function referenceProblems(file: Linted, linted: readonly Linted[], beside: Beside): Promise<ContractProblem[]> {
  const { contract } = file;
  const references = contract?.schema.columns.flatMap((c) => (c.references ? [c.references] : [])) ?? [];
  if (!contract || references.length === 0) return [];
  const found = await Promise.all(references.map((r) => beside.find(file.path, r.contract)));
  const candidates = dedupe([...linted.flatMap((l) => (l.contract ? [{ contract: l.contract, file: l.path }] : [])), ...found.flatMap((f) => f.loaded)]);
  const broken = new Map(references.map((r, i) => [r.contract, found[i]?.broken ?? []]));
  const searched = (reference: ColumnReference) => {
    const unusable = broken.get(reference.contract) ?? [];
    const pattern = `${reference.contract}.v${reference.major ?? '*'}.yaml`;
    return `among the ${plural(linted.length, 'file')} linted and for ${pattern} in ${dirname(file.path)}/${unusable.length ? `, where ${unusable.join(', ')} did not load` : ''}`;
  };
  const text = await readFile(file.path, 'utf8');
  return checkReferences({ contract, file: file.path }, { candidates, searched }, locator(text));
}

/** The contracts named `<name>.v<major>.yaml` in a directory, read once per file. */
class Beside {
  private readonly listings = new Map<string, Promise<string[]>>();
  private readonly loads = new Map<string, Promise<LoadResult | undefined>>();

  constructor(private readonly options: LoadOptions, linted: readonly Linted[]) {
    for (const file of linted) this.loads.set(resolve(file.path), Promise.resolve(file));
  }

  async find(referring: string, name: string): Promise<{ loaded: LoadedContract[]; broken: string[] }> {
    const dir = dirname(referring);
    // A dataset name (NAME) holds no character special in a regular expression.
    const pattern = new RegExp(`^${name}\\.v\\d+\\.ya?ml$`);
    const files = (await this.list(dir)).filter((f) => pattern.test(f)).map((f) => join(dir, f));
    const results = await Promise.all(files.map((f) => this.load(f)));
    const loaded = files.flatMap((f, i) => (results[i]?.contract ? [{ contract: results[i].contract, file: f }] : []));
    return { loaded, broken: files.filter((_, i) => !results[i]?.contract).map((f) => basename(f)) };
  }

  private list(dir: string): Promise<string[]> {
    let listing = this.listings.get(dir);
    if (!listing) this.listings.set(dir, (listing = readdir(dir).catch(() => [])));
    return listing;
  }

  private load(path: string): Promise<LoadResult | undefined> {
    let result = this.loads.get(resolve(path));
    if (!result) this.loads.set(resolve(path), (result = loadContractFile(path, this.options).catch(() => undefined)));
    return result;
  }
}

/** One entry per file, the linted path kept over the same file found beside. */
function dedupe(contracts: readonly LoadedContract[]): LoadedContract[] {
  const seen = new Set<string>();
  return contracts.filter(({ file }) => !seen.has(resolve(file)) && Boolean(seen.add(resolve(file))));
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
