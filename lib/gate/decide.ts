import { buildCheckPlan } from '../checks/check-plan.js';
import { isoSeconds, runChecks, type CheckRun, type PartitionFile } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { matchPartition } from '../contract/partition-template.js';
import { formatTimestamp, parseTemporal } from '../contract/temporal.js';
import type { Violation } from '../report/report.js';
import type { ObjectStore } from '../storage/object-store.js';
import type { ContractRegistry } from './contract-registry.js';
import { attemptId, type Decision } from './decision.js';
import { gateReport, refusal, type GateReport } from './gate-report.js';
import { checkManifest, parseManifest } from './manifest.js';
import type { Drop } from './read-drop.js';

export interface DecideContext {
  readonly store: ObjectStore;
  readonly contracts: ContractRegistry;
  readonly now: number;
}

/** Validates a drop and says what to do with it. Data problems decide; only storage throws. */
export async function decide(context: DecideContext, drop: Drop): Promise<Decision> {
  const { address } = drop;
  const attempt = attemptId(context.now, drop.tag);
  const contract = context.contracts.find(address.dataset, address.major);
  const warnings = contract ? lifecycleWarnings(contract) : [];
  const reportContext = { location: context.store.location, attempt, warnings };
  const refused = refuse(contract, drop, context.now);
  if (refused || !contract) {
    const named = { name: address.dataset, version: contract?.version.text ?? null };
    const report = gateReport(refusal(named, drop, refused ?? noContract(drop), isoSeconds(context.now)), drop, reportContext);
    return decisionRecord(context.now, attempt, drop, contract, report);
  }
  const run = await runChecks(buildCheckPlan(contract, context.now), drop.files.map((f) => stagedFile(context.store, f)));
  return decisionRecord(context.now, attempt, drop, contract, gateReport(run.report, drop, { ...reportContext, stats: run.stats }), run);
}

/**
 * The record of a decision around the report it rests on: what decide() writes, and what the
 * fan-out writes around the run it merged from many functions.
 */
export function decisionRecord(now: number, attempt: string, drop: Drop, contract: Contract | undefined, report: GateReport, run?: CheckRun): Decision {
  const column = contract?.sla?.freshnessColumn;
  const newest = column && run?.newest !== undefined ? { column, value: formatTimestamp(run.newest) } : undefined;
  return {
    format: 'contract-gate/decision@1',
    tag: drop.tag,
    attempt,
    outcome: report.status === 'pass' ? 'publish' : 'quarantine',
    decided_at: isoSeconds(now),
    address: drop.address,
    contract: contract ? { name: contract.name, version: contract.version.text, owner: contract.owner.team } : null,
    files: drop.files,
    report,
    ...(newest ? { newest } : {}),
    ...producerManifest(drop),
  };
}

/** The reasons to refuse a drop before reading any data, in the order a producer fixes them. */
function refuse(contract: Contract | undefined, drop: Drop, now: number): Violation | undefined {
  if (!contract) return noContract(drop);
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
  return { rule, count: 1, message, samples: [{ file: drop.marker.key, row: null, value: null }] };
}

export function lifecycleWarnings(contract: Contract): string[] {
  if (contract.status !== 'deprecated') return [];
  return [`${contract.name} v${contract.version.major} is deprecated${contract.sunset ? ` and will be retired on ${contract.sunset}` : ''}; move to its successor`];
}

export function producerManifest(drop: Drop): Pick<Decision, 'producer_manifest'> {
  if (drop.markerBody.length === 0) return {};
  const text = new TextDecoder().decode(drop.markerBody);
  return typeof parseManifest(text) === 'string' ? { producer_manifest: text } : { producer_manifest: JSON.parse(text) };
}

function stagedFile(store: ObjectStore, file: { key: string; size: number }): PartitionFile {
  return {
    path: file.key,
    byteLength: file.size,
    open: async () => ({
      source: { byteLength: file.size, slice: async (start, end = file.size) => (await store.read(file.key, start, end)).slice().buffer },
      close: async () => {},
    }),
  };
}
