import type { ValidateFunction } from 'ajv/dist/2020.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { severityOf } from '../../lib/checks/rule-severity.js';
import type { Contract } from '../../lib/contract/model.js';
import { exportJsonSchema } from '../../lib/export/to-json-schema.js';
import type { Report, RuleId } from '../../lib/report/report.js';
import { PANDAS_MISSING, PANDAS_PYTHON, writeWithDuckDB, writeWithPandas, type CaseWriter } from './case-writers.js';
import { judgeCases, unsafeIntegers, type Judged } from './engine-verdict.js';
import { caseRows, rowCases, type BrokenRule, type RowCase } from './row-cases.js';
import { loadContract, matrixYaml, warnEverywhere } from './rule-matrix.js';
import { compileRowSchema, failures } from './row-validator.js';

/**
 * The exported JSON Schema held against the engine, the judge of what is valid. For each column
 * of the rule matrix, one JSON line per case (row-cases.ts), written by a real writer: the gate's
 * verdict must be the one the case was made for, every line the gate passes must validate under
 * the schema (ajv, draft 2020-12, strict), and a line breaking a rule JSON Schema can state must
 * fail it. A case JSON Schema cannot state (a date compared with a bound, a decimal number's
 * digits after the point) must validate: the schema names it in `$comment` for the gate to check.
 * An integer past 2^53 is a double to ajv, which parses with JSON.parse: against a bound there,
 * only the gate's verdict is exact (unsafeIntegers), and the schema must still pass what it passes.
 */
const MATRIX = loadContract(matrixYaml());
const CONTRACTS: readonly [string, Contract][] = [
  ['the rule matrix', MATRIX],
  ['the rule matrix with every rule at warn', warnEverywhere(MATRIX)],
];

/** The rule a report names for a broken rule of the case. */
const REPORTED: Readonly<Record<BrokenRule, RuleId>> = {
  type: 'type', required: 'required', required_when: 'required', enum: 'enum', min: 'min', max: 'max',
  pattern: 'pattern', length: 'length', not_in_future: 'not_in_future', extra_columns: 'unexpected_column',
};

const columnOf = (sample: RowCase) => (sample.column === '(row)' ? 'surprise' : sample.column);

interface Written {
  readonly contract: Contract;
  readonly validate: ValidateFunction;
  readonly cases: readonly RowCase[];
  readonly judged: readonly (Judged | undefined)[];
  readonly report: Report;
}

/** What is wrong with one case, or undefined when the gate and the schema agree as they must. */
function disagreement(written: Written, index: number): string | undefined {
  const { contract, validate, cases } = written;
  const sample = cases[index]!;
  const judged = written.judged[index];
  if (!judged) return undefined;
  const rule = sample.breaks && REPORTED[sample.breaks];
  const errors = rule !== undefined && severityOf(contract)(rule, columnOf(sample)) === 'error';
  const at = `${sample.column}, ${sample.what}: ${judged.line}`;
  const refused = judged.errors.length > 0;
  if (errors !== refused) return `${at}: the gate ${refused ? `refuses it (${judged.errors.map((e) => `${e.rule} ${e.column ?? ''}`).join(', ')})` : 'takes it'}`;
  if (errors && !judged.errors.some((e) => e.rule === rule && (e.column ?? 'surprise') === columnOf(sample))) return `${at}: the gate does not name ${rule}`;
  const valid = validate(JSON.parse(judged.line));
  if (!errors && !valid) return `${at}: the gate passes it, the schema refuses it (${failures(validate).join(', ')})`;
  if (errors && sample.stated && valid && unsafeIntegers(judged.line).length === 0) return `${at}: the schema accepts what it can refuse`;
  if (errors && !sample.stated && !valid) return `${at}: refused by the schema, but marked as left to the gate: mark it stated`;
  return undefined;
}

/** rule and column → how many of the rows judged together break it, as the cases say and as the gate reports. */
function counts(written: Written): { expected: Record<string, number>; reported: Record<string, number> } {
  const expected: Record<string, number> = {};
  written.cases.forEach((sample, i) => {
    if (!sample.breaks || !written.judged[i]?.together) return;
    const key = `${REPORTED[sample.breaks]} ${sample.column}`;
    expected[key] = (expected[key] ?? 0) + 1;
  });
  // NaN is a finding of its own beside the other values past a bound: the same rule, two entries.
  const reported: Record<string, number> = {};
  for (const v of written.report.violations) reported[`${v.rule} ${v.column ?? ''}`] = (reported[`${v.rule} ${v.column ?? ''}`] ?? 0) + v.count;
  return { expected, reported };
}

function holdsAgainstTheEngine(writer: string, write: CaseWriter): void {
  describe.each(CONTRACTS)(`%s, as ${writer} writes it`, (_name, contract) => {
    let written: Written;
    beforeAll(async () => {
      const cases = rowCases(contract);
      const files = await write(caseRows(contract, cases));
      const { judged, report } = await judgeCases(contract, cases, files);
      written = { contract, validate: compileRowSchema(exportJsonSchema(contract)), cases, judged, report };
    }, 120_000);

    const columns = [...new Set(rowCases(contract).map((c) => c.column))];
    it.each(columns)('agrees with the gate on every case of %s', (column) => {
      const problems = written.cases.flatMap((sample, index) => (sample.column === column ? [disagreement(written, index)] : [])).filter((p) => p !== undefined);
      expect(problems).toEqual([]);
    });

    it('has the gate report each broken rule once per row that breaks it, at warn as at error', () => {
      const { expected, reported } = counts(written);
      expect(reported).toEqual(expected);
    });
  });
}

holdsAgainstTheEngine('DuckDB (COPY ... FORMAT json)', writeWithDuckDB);

describe.skipIf(!PANDAS_PYTHON)(PANDAS_PYTHON ? `pandas (${PANDAS_PYTHON})` : `pandas: skipped, ${PANDAS_MISSING}`, () => {
  holdsAgainstTheEngine("pandas (to_json(orient='records', lines=True, date_format='iso'))", writeWithPandas);
});
