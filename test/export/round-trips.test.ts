import { beforeAll, describe, expect, it } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { DBT_ADAPTERS } from '../../lib/export/dbt-adapters.js';
import { exportDbt } from '../../lib/export/to-dbt.js';
import { exportJsonSchema } from '../../lib/export/to-json-schema.js';
import { exportOdcs } from '../../lib/odcs/to-odcs.js';
import { writeWithDuckDB } from './case-writers.js';
import { judgeCases } from './engine-verdict.js';
import { generatedContracts } from './generated-contracts.js';
import { forDataChecks, importBack, verdictLines } from './round-trip.js';
import { caseRows, rowCases, type BrokenRule, type RowCase } from './row-cases.js';
import { ruleTable, type Facet } from './rule-table.js';

interface Target {
  /** What the format says of a contract: the round trip must keep each of these. */
  readonly facets: readonly Facet[];
  readonly back: (contract: Contract) => Contract;
  /** Rules the format has no word for: rows breaking them are left out of the data check. */
  readonly unsaid?: readonly BrokenRule[];
}

const COLUMN_FACETS: readonly Facet[] = ['type', 'presence', 'required_when', 'enum', 'bounds', 'pattern', 'length', 'unique', 'not_in_future', 'references', 'severity', 'description'];

/** dbt says the model's rules; the file format, partition layout and extra columns are the gate's alone. */
const DBT_FACETS: readonly Facet[] = [...COLUMN_FACETS, 'name', 'version', 'grain', 'schema_severity', 'reference_pins', 'default', 'freshness'];

const TARGETS: Readonly<Record<string, Target>> = {
  'JSON Schema': {
    facets: [...COLUMN_FACETS, 'name', 'version', 'format', 'partition', 'grain', 'extra_columns', 'reference_pins', 'default'],
    back: (contract) => importBack(exportJsonSchema(contract), `${contract.name}.schema.json`, 'jsonschema').contract,
  },
  ...Object.fromEntries(DBT_ADAPTERS.map((adapter): [string, Target] => [`dbt (${adapter})`, {
    facets: DBT_FACETS,
    back: (contract) => importBack(exportDbt(contract, { adapter }), 'schema.yml', 'dbt').contract,
    unsaid: ['extra_columns'],
  }])),
  ODCS: {
    facets: [...COLUMN_FACETS, 'name', 'version', 'format', 'partition', 'grain', 'extra_columns', 'schema_severity', 'reference_pins', 'default', 'freshness'],
    back: (contract) => {
      const { contract: back, problems } = parseContract(exportOdcs(contract), `${contract.name}.odcs.yaml`);
      expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
      return back!;
    },
  },
};

/**
 * native → format → native over generated contracts (every column type with every rule of its
 * type, at error, at warn and mixed; references, defaults, a composite grain, freshness): the
 * contract read back states the same rules, compared rule by rule, for every rule both sides
 * say, and the gate passes and fails the same rows with it, rows written by DuckDB from the
 * row cases of the original (row-cases.ts).
 */
describe.each(generatedContracts())('%s', (_name, contract) => {
  let cases: RowCase[];
  let files: (Uint8Array | undefined)[];
  // The original's verdicts, judged once: every format's contract is held to the same ones.
  let before: Awaited<ReturnType<typeof judgeCases>>;
  beforeAll(async () => {
    const original = forDataChecks(contract);
    cases = rowCases(original);
    files = await writeWithDuckDB(caseRows(original, cases));
    before = await judgeCases(original, cases, files);
  }, 120_000);

  it.each(Object.entries(TARGETS))('comes back from %s with every rule the format can say', (_format, target) => {
    const back = target.back(contract);
    expect(ruleTable(back, target.facets)).toEqual(ruleTable(contract, target.facets));
  });

  it.each(Object.entries(TARGETS))('comes back from %s passing and failing the rows the original does', async (_format, target) => {
    const original = forDataChecks(contract);
    const back = forDataChecks(target.back(contract));
    const after = await judgeCases(back, cases, files);
    const refused = (judged: (typeof before)['judged'][number]) => judged?.errors.map((e) => `${e.rule} ${e.column ?? ''}`).sort().join(', ');
    const said = (sample: RowCase) => !target.unsaid?.includes(sample.breaks!);
    const differences = cases.flatMap((sample, i) => (!said(sample) || refused(before.judged[i]) === refused(after.judged[i]) ? [] : [`${sample.column}, ${sample.what}: ${refused(before.judged[i]) || 'taken'} → ${refused(after.judged[i]) || 'taken'}`]));
    expect(differences).toEqual([]);
    expect(verdictLines(after.report, back)).toEqual(verdictLines(before.report, original));
  });
});
