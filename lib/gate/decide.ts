import { buildCheckPlan } from '../checks/check-plan.js';
import { isoSeconds, runChecks, type PartitionFile } from '../checks/validate-partition.js';
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
  let report: GateReport;
  let newest: Decision['newest'];
  if (refused || !contract) {
    const named = { name: address.dataset, version: contract?.version.text ?? null };
    report = gateReport(refusal(named, drop, refused ?? noContract(drop), isoSeconds(context.now)), drop, reportContext);
  } else {
    const run = await runChecks(buildCheckPlan(contract, context.now), drop.files.map((f) => stagedFile(context.store, f)));
    report = gateReport(run.report, drop, { ...reportContext, stats: run.stats });
    const column = contract.sla?.freshnessColumn;
    if (column && run.newest !== undefined) newest = { column, value: formatTimestamp(run.newest) };
  }
  return {
    format: 'contract-gate/decision@1',
    tag: drop.tag,
    attempt,
    outcome: report.status === 'pass' ? 'publish' : 'quarantine',
    decided_at: isoSeconds(context.now),
    address,
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
