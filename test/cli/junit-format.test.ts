import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { formatJunitReport } from '../../lib/report/junit-report.js';
import type { Report, Violation } from '../../lib/report/report.js';
import { findAll, parseStrictXml, type XmlElement } from './strict-xml.js';

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
const BAD = 'contracts/examples/orders/bad/dt=2026-11-29';
const NOW = '2026-11-30T05:00:00Z';

async function run(args: string[]) {
  let stdout = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: () => undefined, isTTY: false };
  return { code: await runCli(args, io), stdout };
}

function validate(partition: string, format: string) {
  return run(['validate', '--contract', 'contracts/orders.v1.yaml', partition, '--now', NOW, '--format', format]);
}

function orders(): Contract {
  const { contract } = parseContract(readFileSync('contracts/orders.v1.yaml', 'utf8'), 'orders.v1.yaml');
  if (!contract) throw new Error('the shipped contract does not load');
  return contract;
}

/** The checks a report's violations fall under: extra columns are one check, whatever their names. */
function distinctChecks(violations: readonly Violation[]): number {
  return new Set(violations.map((v) => (v.rule === 'unexpected_column' ? v.rule : `${v.rule} ${v.column ?? ''}`))).size;
}

function counts(element: XmlElement) {
  return { tests: Number(element.attributes.tests), failures: Number(element.attributes.failures) };
}

describe('validate --format junit', () => {
  it('writes one testcase per check of the plan, failures matching the report, exit code unchanged', async () => {
    const junit = await validate(BAD, 'junit');
    const report = JSON.parse((await validate(BAD, 'json')).stdout) as Report;
    expect(junit.code).toBe(1);
    const root = parseStrictXml(junit.stdout);
    const [suite] = findAll(root, 'testsuite');
    const cases = findAll(root, 'testcase');
    const failed = cases.filter((c) => c.children.some((child) => child.name === 'failure'));
    expect(counts(root)).toEqual({ tests: cases.length, failures: failed.length });
    expect(counts(suite!)).toEqual({ tests: cases.length, failures: distinctChecks(report.violations) });
    expect(suite!.attributes).toMatchObject({ name: 'orders 1.2.0', timestamp: report.checked_at });
    expect(cases.length).toBe(failed.length + cases.filter((c) => c.children.length === 0).length);
    const failureText = findAll(root, 'failure').map((f) => `${f.attributes.message}\n${f.text}`).join('\n');
    for (const violation of report.violations) {
      expect(failureText).toContain(violation.message);
      expect(failureText).toContain(`count: ${violation.count}`);
    }
    const status = cases.find((c) => c.attributes.name === 'enum status');
    expect(status?.attributes.classname).toBe('orders.status');
    expect(status?.children[0]?.text).toMatch(/samples:\n {2}.*part-0000\.parquet row 3: "pending"/);
  });

  it('lists every check as passed for a partition that keeps the contract', async () => {
    const { code, stdout } = await validate(GOOD, 'junit');
    expect(code).toBe(0);
    const root = parseStrictXml(stdout);
    const names = findAll(root, 'testcase').map((c) => c.attributes.name);
    expect(counts(root)).toEqual({ tests: names.length, failures: 0 });
    expect(names).toEqual(expect.arrayContaining(['unreadable', 'missing_column order_id', 'type amount', 'required amount', 'min amount', 'pattern order_id', 'grain']));
  });

  it('escapes hostile text so the XML stays well-formed and reads back what the report said', () => {
    const hostile = 'a<b & c>"d\' ]]> e\tf\rg 🦆 naïve';
    const controls = 'nul\u0000 bell\u0007 esc\u001b lone\uD800';
    const report: Report = {
      status: 'fail', contract: { name: 'orders', version: '1.2.0' }, rows: 2, files: [{ path: `p<&>.parquet`, rows: 2, bytes: 10 }], checked_at: NOW,
      violations: [
        { rule: 'enum', severity: 'error', column: 'status', count: 2, message: hostile, samples: [{ file: 'x]]>y&.parquet', row: 0, value: hostile }, { file: 'z', row: 1, value: controls }] },
        { rule: 'manifest', severity: 'error', count: 1, message: controls, samples: [] },
        { rule: 'manifest', severity: 'error', count: 1, message: `two\r\nlines ${hostile}`, samples: [] },
      ],
    };
    const root = parseStrictXml(formatJunitReport(report, buildCheckPlan(orders(), Date.parse(NOW))));
    const failures = findAll(root, 'failure');
    const visible = 'nul\\u0000 bell\\u0007 esc\\u001B lone\\uD800';
    expect(failures.map((f) => f.attributes.message)).toEqual([hostile, `${visible}; two`]);
    expect(failures[0]!.text).toBe(`count: 2\n${hostile}\nsamples:\n  x]]>y&.parquet row 0: ${JSON.stringify(hostile)}\n  z row 1: ${JSON.stringify(controls)}`);
    expect(failures[1]!.text).toBe(`count: 1\n${visible}\n\ncount: 1\ntwo\r\nlines ${hostile}`);
    expect(findAll(root, 'testcase').at(-1)?.attributes.name).toBe('manifest');
    expect(findAll(root, 'property').find((p) => p.attributes.name === 'files')?.attributes.value).toBe('1');
    expect(counts(root)).toEqual({ tests: findAll(root, 'testcase').length, failures: 2 });
  });
});

describe('the strict XML reader the tests rely on', () => {
  it('refuses what is not well-formed', () => {
    const bad = ['<a>', '<a></b>', '<a x="1" x="2"/>', '<a>&</a>', '<a>]]></a>', '<a x="<"/>', '<a>&bogus;</a>', '<a>\u0001</a>', '<a>&#0;</a>', '<a/><b/>'];
    for (const body of bad) expect(() => parseStrictXml(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`), body).toThrow();
  });
});
