import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import type { CliIo } from '../../lib/cli/cli-io.js';
import { inferCommand } from '../../lib/cli/infer-command.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { GateError } from '../../lib/errors.js';
import type { Report } from '../../lib/report/report.js';
import { localPartitionFiles } from '../../lib/storage/local-files.js';

/**
 * Runs `infer` in-process as run-cli.ts does: a GateError is exit 2 with its message on stderr.
 * (run-cli.ts wires the command in; these tests call it directly.)
 */
export async function runInfer(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), isTTY: false };
  try {
    return { code: await inferCommand(args, io), stdout, stderr };
  } catch (error) {
    if (!(error instanceof GateError)) throw error;
    return { code: 2, stdout, stderr: `${stderr}contract-gate infer: ${error.message}\n` };
  }
}

/**
 * Infers a contract and parses it as `lint` does: it must load with no problem at all. `why` is
 * what the CLI told the user on stderr: why it chose the grain and the freshness column.
 */
export async function inferContract(args: string[], file = 'proposed.v1.yaml'): Promise<{ text: string; contract: Contract; why: string }> {
  const { code, stdout, stderr } = await runInfer(args);
  expect(stderr).toMatch(/^grain: [^\n]+\n(.*\n)*freshness_column: /);
  expect(code).toBe(0);
  const { contract, problems } = parseContract(stdout, file);
  expect(problems).toEqual([]);
  return { text: stdout, contract: contract!, why: stderr };
}

/**
 * Checks a partition with the real engine at a check time just after its newest freshness
 * value (a first run finds that value; the wall clock when there is no freshness rule).
 */
export async function checkPartition(contract: Contract, dir: string): Promise<Report> {
  const files = await localPartitionFiles([dir]);
  const first = await runChecks(buildCheckPlan(contract, Date.now()), files);
  if (first.newest === undefined) return first.report;
  return (await runChecks(buildCheckPlan(contract, first.newest + 1000), files)).report;
}

export async function expectPasses(contract: Contract, dirs: readonly string[]): Promise<void> {
  for (const dir of dirs) {
    const report = await checkPartition(contract, dir);
    expect(report.violations, dir).toEqual([]);
    expect(report.status).toBe('pass');
  }
}

export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'cg-infer-'));

/** Writes a file below `root`, creating its folders; `.gz` names are gzip-compressed. */
export function writeSample(root: string, path: string, text: string): string {
  const full = join(root, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, path.endsWith('.gz') ? gzipSync(text) : text);
  return full;
}

/**
 * Each line is what the user is told, both on stderr (`why`) and as a comment of the proposed
 * YAML (`text`), whole, whatever it is indented by.
 */
export function expectExplained(text: string, why: string, explained: readonly string[]): void {
  const told = why.split('\n').map((line) => line.trim());
  const commented = text.split('\n').map((line) => line.trim()).filter((line) => line.startsWith('#')).map((line) => line.replace(/^#\s*/, ''));
  for (const line of explained) {
    expect(told, 'on stderr').toContain(line);
    expect(commented, 'in the YAML').toContain(line);
  }
}

export function column(contract: Contract, name: string) {
  const found = contract.schema.columns.find((c) => c.name === name);
  if (!found) throw new Error(`no column ${name} in the proposal`);
  return found;
}
