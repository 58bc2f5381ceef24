import { isoSeconds, type CheckRun } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { formatTimestamp } from '../contract/temporal.js';
import { attemptId, type Decision } from '../gate/decision.js';
import { gateReport } from '../gate/gate-report.js';
import { lifecycleWarnings, producerManifest } from '../gate/decide.js';
import type { Drop } from '../gate/read-drop.js';

/**
 * The decision around a run the fan-out merged, field for field what decide() writes around the
 * run it checks itself. decide() checks inline and exports no envelope of its own, so this
 * mirrors its checked branch; test/fanout holds the two decisions equal.
 */
export function checkedDecision(context: { readonly location: string; readonly now: number }, contract: Contract, drop: Drop, run: CheckRun): Decision {
  const attempt = attemptId(context.now, drop.tag);
  const warnings = lifecycleWarnings(contract);
  const report = gateReport(run.report, drop, { location: context.location, attempt, warnings, stats: run.stats });
  const column = contract.sla?.freshnessColumn;
  const newest = column && run.newest !== undefined ? { column, value: formatTimestamp(run.newest) } : undefined;
  return {
    format: 'contract-gate/decision@1',
    tag: drop.tag,
    attempt,
    outcome: report.status === 'pass' ? 'publish' : 'quarantine',
    decided_at: isoSeconds(context.now),
    address: drop.address,
    contract: { name: contract.name, version: contract.version.text, owner: contract.owner.team },
    files: drop.files,
    report,
    ...(newest ? { newest } : {}),
    ...producerManifest(drop),
  };
}
