import type { ColumnSpec } from '../contract/model.js';
import type { Sample } from '../report/report.js';
import type { CheckPlan } from './check-plan.js';
import { DuplicateKeys } from './duplicate-keys.js';
import { ViolationLog } from './violation-log.js';

/** Everything a run accumulates across the files of one partition. */
export class PartitionState {
  readonly log: ViolationLog;
  readonly grain: DuplicateKeys | undefined;
  readonly unique = new Map<string, DuplicateKeys>();
  rows = 0;
  newest: { value: number; sample: Sample } | undefined;

  constructor(readonly plan: CheckPlan, readonly files: readonly string[]) {
    this.log = new ViolationLog(plan.columns.map((c) => c.spec.name));
    this.grain = plan.grain.length > 0 ? new DuplicateKeys(files) : undefined;
    for (const column of plan.columns) {
      if (column.spec.unique && !isWholeGrain(plan, column.spec)) this.unique.set(column.spec.name, new DuplicateKeys(files));
    }
  }
}

/** A unique column that is the whole grain is already checked by the grain rule. */
function isWholeGrain(plan: CheckPlan, spec: ColumnSpec): boolean {
  return plan.grain.length === 1 && plan.grain[0] === spec.name;
}
