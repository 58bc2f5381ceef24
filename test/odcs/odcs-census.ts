import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ContractDefaults } from '../../lib/contract/contract-defaults.js';
import { parseContract } from '../../lib/contract/load-contract.js';

/** Where `npx tsx test/odcs/odcs-fixture-census.ts` and its test look for the fixtures (git-ignored). */
export const CENSUS_DIR = join('.cache', 'odcs-fixtures');

/** What the census loads every fixture with: what an operator passes as --default-notify / --default-format. */
export const CENSUS_DEFAULTS: ContractDefaults = { notify: ['data-oncall@example.com'], format: 'parquet' };

export type Verdict = 'clean' | 'warnings' | 'refused';

export interface CensusEntry {
  readonly file: string;
  readonly verdict: Verdict;
  /** Error lines when refused, else warning lines. */
  readonly problems: readonly string[];
}

/** Loads every YAML file of `dir` with the census defaults. */
export function runCensus(dir: string, defaults: ContractDefaults = CENSUS_DEFAULTS): CensusEntry[] {
  return readdirSync(dir).filter((n) => /\.ya?ml$/.test(n)).sort().map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const { contract, problems } = parseContract(text, file, { defaults });
    const errors = problems.filter((p) => p.severity === 'error');
    const lines = (contract ? problems : errors).map((p) => `${p.line}:${p.column} [${p.code}] ${p.path}: ${p.message}`);
    const verdict: Verdict = contract ? (problems.length > 0 ? 'warnings' : 'clean') : 'refused';
    return { file, verdict, problems: lines };
  });
}

/** The census as text: counts, then every refusal with its reasons. */
export function formatCensus(entries: readonly CensusEntry[]): string {
  const count = (v: Verdict) => entries.filter((e) => e.verdict === v).length;
  const loaded = count('clean') + count('warnings');
  const percent = (n: number) => (entries.length === 0 ? '0' : ((100 * n) / entries.length).toFixed(1));
  const lines = [
    `${entries.length} ODCS v3 fixtures, loaded with defaults ${JSON.stringify(CENSUS_DEFAULTS)}:`,
    `  loaded clean          ${count('clean')}`,
    `  loaded with warnings  ${count('warnings')}`,
    `  refused               ${count('refused')}`,
    `  loaded                ${loaded} (${percent(loaded)} %)`,
    '',
  ];
  for (const entry of entries.filter((e) => e.verdict === 'refused')) lines.push(`refused ${entry.file}`, ...entry.problems.map((p) => `    ${p}`));
  return `${lines.join('\n')}\n`;
}
