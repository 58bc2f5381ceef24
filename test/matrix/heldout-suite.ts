import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HeldoutCase } from './heldout-case.js';
import { HELDOUT_DIR } from './heldout-cache.js';
import { describeOutcome, heldoutOutcome, isFalsePass, missedRules, type HeldoutOutcome } from './heldout-outcome.js';

/** A first run writes every file (parquetjs appends row by row); later runs read the cache. */
const CASE_TIMEOUT = 180_000;

/**
 * Declares the held-out cases: for each, the gate's verdict and per-rule counts on the written
 * file must equal what DuckDB's SQL finds over the source table. A false pass fails first, with
 * its own message naming the writer, the types and the case. `name` labels the summary written to
 * test-output/heldout-matrix/<name>.json (printed as a table with HELDOUT_TABLE=1).
 */
export function describeHeldoutMatrix(name: string, cases: readonly HeldoutCase[]): void {
  afterAll(async () => {
    const settled = await Promise.allSettled(cases.map(heldoutOutcome));
    const done = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    mkdirSync(HELDOUT_DIR, { recursive: true });
    writeFileSync(join(HELDOUT_DIR, `${name}.json`), `${JSON.stringify(done.map(summaryRow), null, 2)}\n`);
    if (process.env.HELDOUT_TABLE) process.stdout.write(`\n${done.map(tableLine).join('\n')}\n`);
  }, CASE_TIMEOUT);

  describe.each(cases)('$id: $types', (c) => {
    it('has the verdict and every rule\'s count that DuckDB finds over the source table', async () => {
      const outcome = await heldoutOutcome(c);
      if (isFalsePass(outcome)) expect.fail(`FALSE PASS: the gate would publish bad data.\n  ${describeOutcome(outcome)}`);
      const missed = missedRules(outcome);
      // Each rule is a contract of its own: one whose violations all go unreported would publish the file.
      if (missed.length > 0 && outcome.result === 'FAIL') expect.fail(`FALSE PASS of ${missed.join(', ')}: the gate reports none of these rules' violations (a contract of only these rules would publish the file).\n  ${describeOutcome(outcome)}`);
      const why = describeOutcome(outcome);
      expect(outcome.actual, why).toBeDefined();
      expect({ rows: outcome.actual!.rows, status: outcome.actual!.status, counts: outcome.actual!.counts }, why)
        .toEqual({ rows: outcome.expected.rows, status: outcome.expected.status, counts: outcome.expected.counts });
    }, CASE_TIMEOUT);

    if (c.claims.length > 0) it.each(c.claims)('writes a file that $says', async (claim) => {
      expect(await claim.holds((await heldoutOutcome(c)).path)).toBe(true);
    }, CASE_TIMEOUT);
  });
}

function summaryRow(o: HeldoutOutcome) {
  return {
    case: o.case.id, writer: o.case.writer.writer, settings: o.case.writer.settings, types: o.case.types, file: o.path,
    oracle: o.expected, result: o.result, gate: o.actual, false_pass: isFalsePass(o), missed_rules: missedRules(o), detail: o.detail,
  };
}

function tableLine(o: HeldoutOutcome): string {
  const counts = (c: Readonly<Record<string, number>>) => Object.entries(c).map(([k, n]) => `${k}=${n}`).join(' ') || '-';
  const sorted = (c: Readonly<Record<string, number>>) => JSON.stringify(Object.entries(c).sort());
  const agree = o.actual && sorted(o.actual.counts) === sorted(o.expected.counts) && o.actual.rows === o.expected.rows;
  const missed = o.result === 'FAIL' ? missedRules(o) : [];
  const mark = isFalsePass(o) ? 'FALSE PASS' : missed.length > 0 ? `FALSE PASS of ${missed.join(', ')}` : agree && o.result !== 'refused' ? 'agrees' : 'differs';
  return `| ${o.case.id} | ${counts(o.expected.counts)} | ${o.result}${o.actual ? ` ${counts(o.actual.counts)}` : ''} | ${mark} |${o.detail ? ` ${o.detail.slice(0, 160)}` : ''}`;
}
