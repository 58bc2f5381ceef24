import { expect } from 'vitest';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { importContract } from '../../lib/import/import-contract.js';
import type { ImportSource } from '../../lib/import/detect-source.js';
import type { Report } from '../../lib/report/report.js';
import { severityOf } from '../../lib/checks/rule-severity.js';

/** Imports an export and loads the contract written from it; the import must have no errors. */
export function importBack(text: string, file: string, from: ImportSource): { contract: Contract; warnings: string[] } {
  const result = importContract(text, file, { from });
  const errors = result.problems.filter((p) => p.severity === 'error').map((p) => `${p.line}:${p.column} ${p.message}`);
  expect(errors).toEqual([]);
  const loaded = parseContract(result.text!, result.fileName!);
  expect(loaded.problems.filter((p) => p.severity === 'error')).toEqual([]);
  return { contract: loaded.contract!, warnings: result.problems.filter((p) => p.severity === 'warning').map((p) => `${p.path}: ${p.message}`) };
}

/**
 * The contract as the data checks run it: reading JSON Lines, whatever format it declares (the
 * checks write JSON Lines); without references, which the gate checks against a lake's published
 * partitions these checks do not have; without the SLA, whose freshness is the clock's and whose
 * volume is the partition's. The rule tables compare those.
 */
export function forDataChecks(contract: Contract): Contract {
  const columns = contract.schema.columns.map(({ references: _references, ...column }) => column);
  const { sla: _sla, ...rest } = contract;
  return { ...rest, produces: { ...contract.produces, format: 'jsonl' }, schema: { ...contract.schema, columns } };
}

/** What a report says of the rows, as lines: status, then each violation's rule, column, count and weight. */
export function verdictLines(report: Report, contract: Contract): string[] {
  const weigh = severityOf(contract);
  return [`status ${report.status}`, ...report.violations.map((v) => `${v.rule} ${v.column ?? ''} ${v.count} (${weigh(v.rule, v.column ?? undefined)})`).sort()];
}
