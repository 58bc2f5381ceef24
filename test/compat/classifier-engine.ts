import { buildCheckPlan } from '../../lib/checks/check-plan.js';
import { runChecks } from '../../lib/checks/validate-partition.js';
import { diffContracts } from '../../lib/compat/diff-contracts.js';
import type { ChangeClass } from '../../lib/compat/contract-diff.js';
import { parseContract } from '../../lib/contract/load-contract.js';
import type { Contract } from '../../lib/contract/model.js';
import { formatProblem } from '../../lib/contract/problems.js';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import type { Report } from '../../lib/report/report.js';
import { seededRandom } from '../fixtures/seeded-random.js';
import { contractYaml, drawContract, NOW, type ContractDraft, type Random } from './draw-contract.js';
import { drawData, fileBytes, type DrawnData } from './draw-data.js';
import { drawEdit } from './draw-edit.js';

/**
 * The property: for an edit the classifier calls compatible under a mode, data the promising
 * side's contract allows is accepted by the engine under the other side's contract, as the mode
 * says (backward: old data under the new contract; forward: new data under the old; full: both).
 * Each side's data is first checked under its own contract, which holds the engine against this
 * test's independent reading of the rules.
 */
export interface Finding {
  readonly seed: number;
  /** `self`: the engine refused data its own contract allows; `compat`: the other side refused it. */
  readonly kind: 'self' | 'compat' | 'unloadable';
  readonly direction?: string;
  readonly edits: readonly string[];
  readonly changes: readonly string[];
  readonly violations: readonly string[];
  readonly data?: string;
  readonly contracts: readonly [string, string];
}

export interface TrialResult {
  readonly seed: number;
  readonly outcome: 'checked' | 'breaking' | 'no-data';
  readonly findings: readonly Finding[];
  /** Change ids the classifier called compatible in this trial. */
  readonly compatible: readonly string[];
  /** Directions in which data was drawn and judged. */
  readonly judged: number;
}

const PROMISES = { backward: [['old', 'next']], forward: [['next', 'old']], full: [['old', 'next'], ['next', 'old']] } as const;

export async function runTrial(seed: number): Promise<TrialResult> {
  const random = seededRandom(seed);
  const drafts = { old: drawContract(random), next: undefined as unknown as ContractDraft };
  const { next, edits } = drawEdit(random, drafts.old);
  drafts.next = next;
  const yaml = [contractYaml(drafts.old), contractYaml(drafts.next)] as const;
  const loaded = yaml.map((text, i) => parseContract(text, i === 0 ? 'old/prop.v1.yaml' : 'next/prop.v1.yaml'));
  const [old, neu] = loaded.map((l) => l.contract);
  const base = { seed, edits, contracts: yaml };
  if (!old || !neu) return { seed, outcome: 'no-data', compatible: [], judged: 0, findings: [{ ...base, kind: 'unloadable', changes: [], violations: loaded.flatMap((l) => l.problems.filter((p) => p.severity === 'error').map(formatProblem)) }] };
  const diff = diffContracts(old, neu);
  const changes = diff.changes.map((c) => `${c.change} ${c.class}: ${c.message}`);
  if (diff.changes.some((c) => BLOCKING.has(c.class))) return { seed, outcome: 'breaking', compatible: [], judged: 0, findings: [] };
  const contracts = { old, next: neu };
  const findings: Finding[] = [];
  let judged = 0;
  for (const [writer, reader] of PROMISES[neu.compat.mode as keyof typeof PROMISES]) {
    const data = drawData(random, drafts[writer]);
    if (!data) continue;
    judged++;
    const bytes = fileBytes(data, drafts[writer].format, random);
    const own = await judge(contracts[writer], bytes);
    const described = describeData(data);
    if (own.status === 'fail') findings.push({ ...base, kind: 'self', direction: `${writer} data under ${writer}`, changes, violations: violationsOf(own), data: described });
    const other = await judge(contracts[reader], bytes);
    if (other.status === 'fail') findings.push({ ...base, kind: 'compat', direction: `${writer} data under ${reader}`, changes, violations: violationsOf(other), data: described });
  }
  return { seed, outcome: judged > 0 ? 'checked' : 'no-data', findings, compatible: diff.changes.map((c) => c.change), judged };
}

const BLOCKING: ReadonlySet<ChangeClass> = new Set(['breaking', 'error']);

async function judge(contract: Contract, bytes: Uint8Array): Promise<Report> {
  const file = { path: `part-0.${contract.produces.format}`, byteLength: bytes.byteLength, open: async () => ({ source: byteSourceFromBytes(bytes), close: async () => {} }) };
  return (await runChecks(buildCheckPlan(contract, NOW), [file])).report;
}

function violationsOf(report: Report): string[] {
  return report.violations.filter((v) => v.severity === "error").map((v) => `${v.rule}${v.column ? ` ${v.column}` : ""}: ${v.message}${v.samples[0]?.value !== undefined && v.samples[0]?.value !== null ? ` (e.g. ${JSON.stringify(v.samples[0].value)})` : ""}`);
}

function describeData(data: DrawnData): string {
  const absent = data.absent.length > 0 ? ` (absent: ${data.absent.join(', ')})` : '';
  return `${data.rows} rows of ${data.columns.map((c) => `${c.name} ${c.type} ${JSON.stringify(c.values)}`).join('; ')}${absent}`;
}

/** A finding as a reader of a CI log needs it to reproduce: the seed, the edit, both contracts. */
export function formatFinding(finding: Finding): string {
  return [
    `seed ${finding.seed}: ${finding.kind}${finding.direction ? ` (${finding.direction})` : ''} after ${finding.edits.join(' + ')}`,
    ...finding.changes.map((c) => `  classified: ${c}`),
    ...finding.violations.map((v) => `  engine: ${v}`),
    ...(finding.data ? [`  data: ${finding.data}`] : []),
    `  old:\n${indent(finding.contracts[0])}  new:\n${indent(finding.contracts[1])}`,
  ].join('\n');
}

function indent(text: string): string {
  return text.split('\n').filter(Boolean).map((line) => `    ${line}`).join('\n') + '\n';
}

export type { Random };
