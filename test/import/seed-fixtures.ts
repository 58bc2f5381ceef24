import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importContract, type ImportOptions, type ImportResult } from '../../lib/import/import-contract.js';

/**
 * The contract YAML the project's source documents print, cut out exactly as printed (see
 * seed-fixtures.test.ts, which checks each is still a passage of its document). The prefix is
 * the document's number in ../shared/seeds.
 */
export const SEED_FIXTURES = join('test', 'import', 'fixtures', 'seeds');

/** The documents themselves, beside the project: present in CI and for developers, absent in a plain clone. */
export const SEEDS_DIR = fileURLToPath(new URL('../../../shared/seeds', import.meta.url));
export const SEEDS_PRESENT = existsSync(SEEDS_DIR);

export function seedText(file: string): string {
  return readFileSync(join(SEED_FIXTURES, file), 'utf8');
}

export function importSeed(file: string, options: Partial<ImportOptions> = {}, text = seedText(file)): ImportResult {
  return importContract(text, join(SEED_FIXTURES, file), { from: 'auto', ...options });
}
