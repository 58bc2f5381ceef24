import type { CheckRun } from '../checks/validate-partition.js';
import type { Contract } from '../contract/model.js';
import { decisionRecord, lifecycleWarnings } from '../gate/decide.js';
import { attemptId, type Decision } from '../gate/decision.js';
import { gateReport } from '../gate/gate-report.js';
import type { Drop } from '../gate/read-drop.js';

/** The decision around a run the fan-out merged: the record decide() writes around its own run. */
export function checkedDecision(context: { readonly location: string; readonly now: number }, contract: Contract, drop: Drop, run: CheckRun): Decision {
  const attempt = attemptId(context.now, drop.tag);
  const report = gateReport(run.report, drop, { location: context.location, attempt, warnings: lifecycleWarnings(contract), stats: run.stats });
  return decisionRecord(context.now, attempt, drop, contract, report, run);
}
