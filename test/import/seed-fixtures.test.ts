import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SEED_FIXTURES, SEEDS_DIR, SEEDS_PRESENT, seedText } from './seed-fixtures.js';

const fixtures = readdirSync(SEED_FIXTURES).sort();

describe.skipIf(!SEEDS_PRESENT)('the seed fixtures are passages of their documents (../shared/seeds; skipped when absent)', () => {
  const documents = SEEDS_PRESENT ? readdirSync(SEEDS_DIR).filter((name) => /^\d{3}_.*\.txt$/.test(name)) : [];

  it.each(fixtures)('%s is byte for byte a passage of its document', (fixture) => {
    const document = documents.find((name) => name.startsWith(`${fixture.slice(0, 3)}_`));
    expect(document, `no document ${fixture.slice(0, 3)}_*.txt in ${SEEDS_DIR}`).toBeDefined();
    const text = readFileSync(join(SEEDS_DIR, document!), 'utf8');
    expect(text.includes(seedText(fixture)), `${fixture} is not a passage of ${document}: cut it again from the document`).toBe(true);
  });
});

describe('the seed fixtures', () => {
  it('hold every contract YAML the five documents print', () => {
    expect(fixtures).toEqual([
      '000-orders_v1.yaml', '001-orders_v1.yaml', '001-sources.yml', '002-orders_contract.yaml',
      '003-churn_features_v2.yaml', '003-consumers.yaml', '003-schema.yml', '004-contract.yaml',
    ]);
  });
});
