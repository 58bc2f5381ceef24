import { formatColumnType } from '../../lib/contract/column-type.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { queryRows, sqlIdent, sqlString, withDuckDB } from '../writers/index.js';
import type { RuleCounts } from './duckdb-oracle.js';
import { contractTypeOf, storedColumns } from './oracle-schema.js';

/** What DuckDB makes of a corpus file: a contract requiring every supported column, and the counts. */
export interface CorpusCase {
  readonly contract: Contract;
  readonly expected: RuleCounts;
}

/**
 * Undefined when DuckDB itself cannot read the file (it is then out of the matrix). Otherwise a
 * contract marking every top-level column DuckDB reads with a contract type `required: true`
 * (nested and unsupported columns are left out; extra columns are allowed), and the counts
 * DuckDB expects: its row count and, per column, `count(*) - count(column)` nulls.
 */
export async function corpusCase(file: string): Promise<CorpusCase | undefined> {
  return withDuckDB(async (connection) => {
    let stored;
    try {
      stored = await storedColumns(connection, file);
      await queryRows(connection, `SELECT count(*) FROM read_parquet(${sqlString(file)})`);
    } catch {
      return undefined;
    }
    const typed = stored.flatMap((s) => {
      const type = contractTypeOf(s);
      return type ? [{ name: s.name, type: formatColumnType(type) }] : [];
    });
    const nulls = typed.map((c, i) => `count(*) - count(${sqlIdent(c.name)}) AS n${i}`);
    const [row] = await queryRows(connection, `SELECT count(*) AS rows${nulls.map((n) => `, ${n}`).join('')} FROM read_parquet(${sqlString(file)})`);
    const counts: Record<string, number> = {};
    typed.forEach((c, i) => { if (Number(row![`n${i}`]) > 0) counts[`required:${c.name}`] = Number(row![`n${i}`]); });
    // A contract needs a column: a file with none a contract can declare gets a required one it lacks.
    if (typed.length === 0) counts[`missing_column:${ABSENT}`] = 1;
    const declared = typed.length > 0 ? typed.map((c) => ({ ...c, required: true })) : [{ name: ABSENT, type: 'string', required: true }];
    return { contract: corpusContract(declared), expected: { rows: Number(row!.rows), counts } };
  });
}

const ABSENT = 'no_such_column';

function corpusContract(columns: readonly { name: string; type: string; required: boolean }[]): Contract {
  const document = {
    name: 'corpus_file', version: '1.0.0', owner: { team: 'contract-gate', notify: ['nobody@example.com'] },
    produces: { format: 'parquet', partition: 'dt={ds}' },
    schema: { extra_columns: 'allow', columns },
  };
  // JSON is YAML: the document goes through the same loader as a contract file.
  const { contract, problems } = parseContract(JSON.stringify(document), 'corpus-file.yaml');
  if (!contract) throw new Error(`the corpus contract does not load: ${JSON.stringify(problems)}`);
  return contract;
}
