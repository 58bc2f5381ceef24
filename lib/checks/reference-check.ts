import { openTable } from '../formats/open-table.js';
import { countedSource } from '../formats/prefetched-source.js';
import { UnreadableError } from '../formats/table-file.js';
import { textLayout, type ReferencePlan } from './check-plan.js';
import { INVALID } from './coerce-value.js';
import type { PartitionFile } from './partition-file.js';
import type { PartitionState } from './partition-state.js';
import { referenceKey } from './plan-facts.js';
import { toSampleValue } from './sample-value.js';
import { checkFileSchema, type ReadableColumn } from './schema-check.js';
import { ViolationLog } from './violation-log.js';

/**
 * `references`: a pass over the referencing columns once every file was read, so the key set is
 * looked up in this thread only (it is never copied to a worker). A batch-level rule: a key that
 * is missing from its dimension is not a row the gate may drop on its own.
 */
export async function checkReferences(state: PartitionState, files: readonly PartitionFile[]): Promise<void> {
  const checkable: { plan: ReferencePlan; keys: ReadonlySet<string> }[] = [];
  for (const plan of state.plan.references) {
    const why = !plan.keys ? `no lake was given to read ${plan.target.contract} from` : 'unavailable' in plan.keys ? plan.keys.unavailable : undefined;
    if (why === undefined && plan.keys && 'keys' in plan.keys) checkable.push({ plan, keys: plan.keys.keys });
    else state.log.addTotal('references', plan.column, `${plan.column} cannot be checked against ${target(plan)}: ${why}`, 1, []);
  }
  if (checkable.length === 0) return;
  for (const file of files) await checkFile(state, file, checkable);
}

async function checkFile(state: PartitionState, file: PartitionFile, checkable: readonly { plan: ReferencePlan; keys: ReadonlySet<string> }[]): Promise<void> {
  const opened = await file.open();
  try {
    const table = openTable(state.plan.format, countedSource(opened.source, state.reads), textLayout(state.plan));
    const schema = await table.schema();
    const readable = checkFileSchema(state.plan, schema, file.path, new ViolationLog([]));
    const here = checkable.flatMap((c) => {
      const column = readable.find((r) => r.plan.spec.name === c.plan.column);
      return column ? [{ ...c, column }] : [];
    });
    if (here.length === 0) return;
    const read = here.filter((c) => !c.column.absent && (schema.kind !== 'dynamic' || c.column.plan.absentValue === null));
    const parse = schema.kind === 'typed' ? undefined : new Map(read.map((c) => [c.plan.column, c.column.plan.spec.type]));
    for await (const batch of table.batches(here.filter((c) => !c.column.absent).map((c) => c.plan.column), { parse })) {
      for (const { plan, keys, column } of here) {
        // A column the file lacks holds its default in every row (or nulls, which no reference faults).
        const raw = column.absent ? new Array(batch.rowCount).fill(column.plan.absentValue) : batch.columns.get(plan.column);
        checkValues(state, file.path, plan, keys, batch.parsed?.has(plan.column) || column.absent ? undefined : column.coerce, column, batch.rowStart, raw);
      }
    }
  } catch (error) {
    // An unreadable file was reported by the first pass; anything else (a storage failure, a bug)
    // fails the run, rather than leave the file's references unchecked.
    if (!(error instanceof UnreadableError)) throw error;
  } finally {
    await opened.close();
  }
}

// A column the reader parsed (ColumnBatch.parsed) holds checked values already: coercing them again would spoil them.
function checkValues(state: PartitionState, file: string, plan: ReferencePlan, keys: ReadonlySet<string>, coerce: ReadableColumn['coerce'], column: ReadableColumn, rowStart: number, raw: ArrayLike<unknown> | undefined): void {
  if (!raw) return;
  const detail = `{count} {row|rows} of ${plan.column} {has|have} a value not found in ${target(plan)}`;
  for (let i = 0; i < raw.length; i++) {
    const value = coerce ? coerce(raw[i]) : raw[i];
    if (value === null || value === undefined || value === INVALID) continue;
    if (!keys.has(referenceKey(value))) state.log.add('references', plan.column, detail, { file, row: rowStart + i, value: toSampleValue(value, column.plan.spec.type) });
  }
}

function target(plan: ReferencePlan): string {
  const { contract, column, partition } = plan.target;
  const source = plan.keys?.source;
  return `${contract}.${column}${partition ? ` (${partition})` : ''}${source ? ` at ${source}` : ''}`;
}
