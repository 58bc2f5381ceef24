import { buildCheckPlan } from '../checks/check-plan.js';
import type { PlanFacts } from '../checks/plan-facts.js';
import { runChecks, type CheckRun } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { matchPartition } from '../contract/partition-template.js';
import { formatTimestamp, isoSeconds, parseTemporal } from '../contract/temporal.js';
import { GateError } from '../errors.js';
import { isPublishable, type Violation } from '../report/report.js';
import { objectFile } from '../storage/object-file.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { ContractRegistry } from './contract-registry.js';
import { attemptId, type Decision } from './decision.js';
import { gateReport, refusal, type GateReport } from './gate-report.js';
import { checkManifest, parseManifest } from './manifest.js';
import { MAX_MARKER_BYTES, type Drop, type StagedFile } from './read-drop.js';

export interface DecideContext {
  readonly store: ObjectStore;
  readonly contracts: ContractRegistry;
  readonly now: number;
  /** @default checksInThisThread */
  readonly checks?: CheckRunner;
  /** Reads what the contract's rules need from the lake (history, referenced keys). @default nothing is read */
  readonly facts?: FactsReader;
}

/** The lake-facts port: what a contract's cross-partition rules need, read before the checks. */
export type FactsReader = (contract: Contract, drop: Drop) => Promise<PlanFacts>;

/**
 * Runs a contract's checks over a drop's staged files, reading this thread's share through
 * `store` (the handler's, with its deadline): in this thread, or spread over threads.
 */
export type CheckRunner = (store: ObjectStore, contract: Contract, now: number, files: readonly StagedFile[], facts?: PlanFacts) => Promise<CheckRun>;

/** Reads every staged file through the store, pinned to the version listed, in this thread. */
export const checksInThisThread: CheckRunner = (store, contract, now, files, facts) => runChecks(buildCheckPlan(contract, now, facts), files.map((f) => objectFile(store, f)));

/** Validates a drop and says what to do with it. Data problems decide; only storage throws. */
export async function decide(context: DecideContext, drop: Drop): Promise<Decision> {
  const refused = refusedDecision(context, drop);
  if (refused) return refused;
  const contract = admittedContract(context, drop);
  const facts = { ...(await context.facts?.(contract, drop)), partition: drop.address.partition };
  const run = await (context.checks ?? checksInThisThread)(context.store, contract, context.now, drop.files, facts);
  return checkedDecision({ location: context.store.location, now: context.now }, contract, drop, run);
}

/**
 * The decision for a drop refused before any of its data is read (no contract, retired, path,
 * manifest), or undefined when its data is to be checked. The fan-out asks this too, so a big
 * drop it would refuse anyway is decided without the state machine.
 */
export function refusedDecision(context: DecideContext, drop: Drop): Decision | undefined {
  const { address } = drop;
  const contract = context.contracts.find(address.dataset, address.major);
  const refused = contract ? refuse(contract, drop, context.now) : noContract(drop);
  if (!refused) return undefined;
  const attempt = attemptId(context.now, drop.tag);
  const named = { name: address.dataset, version: contract?.version.text ?? null };
  const reportContext = { location: context.store.location, attempt, warnings: contract ? lifecycleWarnings(contract) : [], ...(contract?.origin ? { origin: contract.origin } : {}) };
  const report = gateReport(refusal(named, drop, refused, isoSeconds(context.now)), drop, reportContext);
  return decisionRecord(context.now, attempt, drop, contract, report);
}

/** The contract of a drop refusedDecision() let through, which has one or it would have been refused. */
export function admittedContract(context: Pick<DecideContext, 'contracts'>, drop: Drop): Contract {
  const { dataset, major } = drop.address;
  const contract = context.contracts.find(dataset, major);
  if (!contract) throw new GateError('internal', `${dataset} v${major} has no contract, yet its drop was not refused`);
  return contract;
}

/**
 * The decision around a run of the checks: what decide() writes around its own run, and what
 * the fan-out writes around the run it merged from many functions.
 */
export function checkedDecision(context: { readonly location: string; readonly now: number }, contract: Contract, drop: Drop, run: CheckRun): Decision {
  const attempt = attemptId(context.now, drop.tag);
  const report = gateReport(run.report, drop, { location: context.location, attempt, warnings: lifecycleWarnings(contract), stats: run.stats, ...(contract.origin ? { origin: contract.origin } : {}) });
  return decisionRecord(context.now, attempt, drop, contract, report, run);
}

/** The record of a decision around the report it rests on. */
export function decisionRecord(now: number, attempt: string, drop: Drop, contract: Contract | undefined, report: GateReport, run?: CheckRun): Decision {
  const column = contract?.sla?.freshnessColumn;
  const newest = column && run?.newest !== undefined ? { column, value: formatTimestamp(run.newest) } : undefined;
  return {
    format: 'contract-gate/decision@1',
    tag: drop.tag,
    attempt,
    outcome: isPublishable(report) ? 'publish' : 'quarantine',
    decided_at: isoSeconds(now),
    address: drop.address,
    contract: contract ? { name: contract.name, version: contract.version.text, owner: contract.owner.team, ...(contract.origin ? { origin: contract.origin } : {}) } : null,
    files: drop.files,
    report,
    ...(newest ? { newest } : {}),
    ...producerManifest(drop),
    ...withheldOf(drop, contract, run),
  };
}

/** The rows a publish leaves out, by the staged file they are in. */
function withheldOf(drop: Drop, contract: Contract | undefined, run: CheckRun | undefined): Pick<Decision, 'withheld'> {
  if (!run?.withheld?.length) return {};
  const files = run.withheld.map(({ fileIndex, list }) => ({ relative: drop.files[fileIndex]!.relative, rows: list.rows, reasons: list.reasons }));
  return { withheld: { rows: files.reduce((sum, f) => sum + f.rows.length, 0), format: contract?.produces.format ?? 'parquet', files } };
}

/** The reasons to refuse a drop with a contract before reading any data, in the order a producer fixes them. */
function refuse(contract: Contract, drop: Drop, now: number): Violation | undefined {
  const sunsetPassed = contract.sunset !== undefined && now >= (parseTemporal(contract.sunset, 'date') ?? Infinity);
  if (contract.status === 'retired' || (contract.status === 'deprecated' && sunsetPassed)) {
    const why = contract.status === 'retired' ? 'is retired' : `was deprecated and its sunset ${contract.sunset} has passed`;
    return whole(drop, 'retired', `${contract.name} v${contract.version.major} ${why}; drops for it are no longer accepted`);
  }
  if (!matchPartition(contract.produces.partition, drop.address.partition)) {
    return whole(drop, 'bad_partition', `the partition path "${drop.address.partition}" does not fit the contract's template "${contract.produces.partition}"`);
  }
  return checkManifest(drop);
}

function noContract(drop: Drop): Violation {
  const { dataset, major } = drop.address;
  return whole(drop, 'no_contract', `there is no contract for ${dataset} v${major}; the gate does not publish data without one`);
}

function whole(drop: Drop, rule: Violation['rule'], message: string): Violation {
  return { rule, severity: 'error', count: 1, message, samples: [{ file: drop.marker.key, row: null, value: null }] };
}

function lifecycleWarnings(contract: Contract): string[] {
  if (contract.status !== 'deprecated') return [];
  return [`${contract.name} v${contract.version.major} is deprecated${contract.sunset ? ` and will be retired on ${contract.sunset}` : ''}; move to its successor`];
}

/** The marker as read: its text (so quarantine can keep it after a newer marker replaced it) and the manifest in it. */
function producerManifest(drop: Drop): Pick<Decision, 'producer_manifest' | 'marker_text'> {
  if (drop.marker.size > MAX_MARKER_BYTES) return {};
  if (drop.markerBody.length === 0) return { marker_text: '' };
  const text = new TextDecoder().decode(drop.markerBody);
  const manifest = typeof parseManifest(text) === 'string' ? text : JSON.parse(text);
  return { marker_text: text, producer_manifest: manifest };
}
