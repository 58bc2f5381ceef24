import { writeFileSync } from 'node:fs';
import { parseContract } from '../../lib/contract/load-contract.js';
import { formatProblem } from '../../lib/contract/problems.js';
import { openDuckDB } from '../writers/index.js';
import type { RuleCounts } from './duckdb-oracle.js';
import { reportCounts, unreadableReasons, validateFiles } from './engine-counts.js';
import { contractYaml, createSource, type HeldoutCase } from './heldout-case.js';
import { heldoutPath, writeHeldoutCached } from './heldout-cache.js';
import { sourceCounts } from './heldout-oracle.js';
import { MATRIX_NOW } from './matrix-tables.js';

/** PASS/WARN/FAIL is the gate's verdict; `refused`: a file or rows called unreadable; `error`: no verdict at all. */
export type HeldoutResult = 'PASS' | 'WARN' | 'FAIL' | 'refused' | 'error';

export interface HeldoutOutcome {
  readonly case: HeldoutCase;
  readonly path: string;
  /** DuckDB over the source table; `fail` when any rule has a count. */
  readonly expected: RuleCounts & { readonly status: 'pass' | 'fail' };
  readonly result: HeldoutResult;
  /** The gate's rows, verdict and counts, when it gave a verdict. */
  readonly actual?: RuleCounts & { readonly status: string };
  /** Why there is no verdict, or why the file was refused. */
  readonly detail?: string;
}

const outcomes = new Map<string, Promise<HeldoutOutcome>>();

/** Computed once per case and shared by the tests (and the summary) that look at it. */
export function heldoutOutcome(c: HeldoutCase): Promise<HeldoutOutcome> {
  let outcome = outcomes.get(c.id);
  if (!outcome) outcomes.set(c.id, (outcome = computeOutcome(c)));
  return outcome;
}

async function computeOutcome(c: HeldoutCase): Promise<HeldoutOutcome> {
  const { connection, close } = await openDuckDB();
  let oracle: RuleCounts;
  let path: string;
  try {
    await createSource(connection, c.table);
    oracle = await sourceCounts(connection, c, MATRIX_NOW);
    path = await writeHeldoutCached(c, connection);
  } finally {
    close();
  }
  const expected = { ...oracle, status: Object.keys(oracle.counts).length > 0 ? 'fail' as const : 'pass' as const };
  const yaml = contractYaml(c);
  // Beside the file, so `contract-gate validate` can be run on a case by hand.
  writeFileSync(`${heldoutPath(c)}.contract.yaml`, yaml);
  const { contract, problems } = parseContract(yaml, `${c.id}.contract.yaml`);
  if (!contract) return { case: c, path, expected, result: 'error', detail: `the contract was refused: ${problems.map(formatProblem).join('; ')}` };
  try {
    const report = await validateFiles(contract, [path], MATRIX_NOW);
    const reasons = unreadableReasons(report);
    const result = reasons.length > 0 ? 'refused' : (report.status.toUpperCase() as HeldoutResult);
    return { case: c, path, expected, result, actual: { ...reportCounts(report), status: report.status }, ...(reasons.length > 0 ? { detail: reasons.join('; ') } : {}) };
  } catch (error) {
    return { case: c, path, expected, result: 'error', detail: `the check threw: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The oracle finds violations, and the gate would publish the file (PASS, or WARN: publishable). */
export function isFalsePass(o: HeldoutOutcome): boolean {
  return o.expected.status === 'fail' && (o.result === 'PASS' || o.result === 'WARN');
}

/** Rules the oracle counts that the gate does not report at all: bad rows it would let through. */
export function missedRules(o: HeldoutOutcome): string[] {
  if (!o.actual) return [];
  return Object.keys(o.expected.counts).filter((key) => !(key in o.actual!.counts));
}

export function describeOutcome(o: HeldoutOutcome): string {
  const head = `${o.case.writer.writer} (${o.case.writer.settings}) wrote ${o.case.types}, case ${o.case.id}, file ${o.path}`;
  const expected = `DuckDB over the source: ${o.expected.rows} rows, ${JSON.stringify(o.expected.counts)}`;
  const actual = o.actual ? `contract-gate: ${o.result}, ${o.actual.rows} rows, ${JSON.stringify(o.actual.counts)}` : `contract-gate: ${o.result}`;
  return [head, expected, actual, o.detail ?? ''].filter(Boolean).join('\n  ');
}
