import type { SchemaElement, SchemaTree } from 'hyparquet';
import { parquetSchema } from 'hyparquet';
import { ParquetWriter } from 'hyparquet-writer';
import type { ByteSource } from '../formats/byte-source.js';
import { finishParquet } from './parquet-finish.js';
import { boundFloats, detachBounds } from './parquet-chunk-statistics.js';
import { readGroupValues } from './parquet-group-read.js';
import { planParquet, type ParquetPlan } from './parquet-plan.js';
import { CREATED_BY, restoreSchema, type WriterSchema } from './parquet-rewrite.js';
import { readSourceFooter } from './parquet-source.js';
import { PartChunks } from './part-chunks.js';
import { PartWriter } from './part-writer.js';
import { META_NAMES, reasonFields } from './row-reasons.js';
import { rowJson } from './row-json.js';
import { rowsPastEnd, type WithheldFile } from './withheld-rows.js';

/** Rows per row group of the rejected-rows file: rows of many source groups gather into one. */
const GROUP_ROWS = 10_000;

const text = (name: string, repetition: 'REQUIRED' | 'OPTIONAL' = 'REQUIRED'): SchemaElement => ({ name, type: 'BYTE_ARRAY', repetition_type: repetition, converted_type: 'UTF8', logical_type: { type: 'STRING' } });
const META: readonly SchemaElement[] = [text('_file'), { name: '_row', type: 'INT64', repetition_type: 'REQUIRED' }, text('_rule'), text('_column', 'OPTIONAL'), text('_message')];
const RECORD = text('_record');

export interface ParquetSource {
  readonly file: WithheldFile;
  readonly source: ByteSource;
}

/**
 * rejected-rows.parquet: the meta columns, then the source columns when every file has the same
 * schema (written as a rewrite writes them, parquet-plan.ts), else the row as JSON text in
 * `_record`. A source whose types cannot be carried is refused as its rewrite would be.
 */
export async function rejectedParquet(files: readonly ParquetSource[], partBytes: number): Promise<{ chunks: AsyncGenerator<Uint8Array>; notes: string[] }> {
  const plans = await Promise.all(files.map(async ({ file, source }) => planParquet(await readSourceFooter(source), file.path)));
  plans.forEach((plan, i) => {
    const rows = files[i]!.file.rows;
    const past = rows.findIndex((row) => row >= plan.rowCount);
    if (past >= 0) throw rowsPastEnd(plan.path, rows, past, plan.rowCount);
  });
  const shared = sharedSchema(plans);
  const notes = shared || plans.length === 0 ? [] : ['the files differ in schema (or a column is named like a meta column): each row is in _record as JSON text'];
  return { chunks: writeRejected(files, plans, shared, partBytes), notes };
}

/** The plan whose columns every file shares, or undefined. */
function sharedSchema(plans: readonly ParquetPlan[]): ParquetPlan | undefined {
  const first = plans[0];
  if (!first) return undefined;
  const key = (plan: ParquetPlan) => JSON.stringify(plan.metadata.schema.slice(1), (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
  const names = new Set<string>([...META_NAMES, RECORD.name]);
  if (parquetSchema(first.metadata).children.some((c) => names.has(c.element.name))) return undefined;
  return plans.every((plan) => key(plan) === key(first)) ? first : undefined;
}

async function* writeRejected(files: readonly ParquetSource[], plans: readonly ParquetPlan[], shared: ParquetPlan | undefined, partBytes: number): AsyncGenerator<Uint8Array> {
  const parts = new PartChunks(partBytes);
  const tail = shared ? shared.writeSchema.slice(1) : [RECORD];
  const root = { name: 'schema', num_children: META.length + (shared ? parquetSchema(shared.metadata).children.length : 1) };
  const writer = new ParquetWriter({ writer: new PartWriter(parts), schema: [root, ...META, ...tail] as WriterSchema, createdBy: CREATED_BY });
  const batch = new RejectedBatch(shared);
  for (let f = 0; f < files.length; f++) {
    for await (const _ of batch.addFile(files[f]!, plans[f]!)) {
      if (batch.size >= GROUP_ROWS) await writeBatch(writer, batch, shared);
      yield* parts.takeFull();
    }
  }
  if (batch.size > 0) await writeBatch(writer, batch, shared);
  restoreSchema(writer, [root, ...META, ...(shared ? shared.metadata.schema.slice(1) : [RECORD])], shared?.columns.flatMap((c) => c.leaves) ?? []);
  await finishParquet(writer);
  yield* parts.takeRest();
}

type WriteArgs = Parameters<ParquetWriter['write']>[0];

async function writeBatch(writer: ParquetWriter, batch: RejectedBatch, shared: ParquetPlan | undefined): Promise<void> {
  const args = batch.take();
  await writer.write(args);
  if (shared) boundFloats(writer, shared.columns, args.columnData.slice(META.length).map((c) => c.data));
  detachBounds(writer);
}

/** Rejected rows gathered for one output row group. */
class RejectedBatch {
  private meta: unknown[][] = META.map(() => []);
  private values: unknown[][];

  constructor(private readonly shared: ParquetPlan | undefined) {
    this.values = (shared?.columns ?? [RECORD]).map(() => []);
  }

  get size(): number {
    return this.meta[0]!.length;
  }

  /** Adds the file's withheld rows a source row group at a time; yields after each group. */
  async *addFile({ file, source }: ParquetSource, plan: ParquetPlan): AsyncGenerator<void> {
    const trees: SchemaTree[] = parquetSchema(plan.metadata).children;
    let next = 0;
    for (let group = 0; group < plan.groupStarts.length && next < file.rows.length; group++) {
      const start = plan.groupStarts[group]!;
      const end = start + Number(plan.metadata.row_groups[group]!.num_rows);
      if (file.rows[next]! >= end) continue;
      const values = await readGroupValues(source, plan, group);
      for (; next < file.rows.length && file.rows[next]! < end; next++) this.addRow(file, next, values, file.rows[next]! - start, plan, trees);
      yield;
    }
  }

  take(): WriteArgs {
    const columns = [...META.map((m, i) => ({ name: m.name, data: this.meta[i]! })), ...this.sourceColumns()];
    const rows = this.size;
    this.meta = META.map(() => []);
    this.values = this.values.map(() => []);
    return { columnData: columns, rowGroupSize: rows };
  }

  private addRow(file: WithheldFile, k: number, values: ReadonlyMap<string, ArrayLike<unknown>>, index: number, plan: ParquetPlan, trees: readonly SchemaTree[]): void {
    const reasons = reasonFields(file.reasons[k]!);
    [file.path, BigInt(file.rows[k]!), reasons.rule, reasons.column, reasons.message].forEach((v, i) => this.meta[i]!.push(v));
    if (!this.shared) {
      this.values[0]!.push(rowJson(trees, new Map(plan.columns.map((c) => [c.name, values.get(c.name)![index]]))));
      return;
    }
    plan.columns.forEach((column, c) => {
      const value = values.get(column.name)![index];
      this.values[c]!.push(value === null || value === undefined || !column.prepare ? value : column.prepare(value));
    });
  }

  private sourceColumns(): WriteArgs['columnData'] {
    if (!this.shared) return [{ name: RECORD.name, data: this.values[0]! }];
    return this.shared.columns.map((column, c) => ({ name: column.name, data: this.values[c]!, codec: 'SNAPPY' as const, statistics: !column.leaves.some((l) => l.noStatistics) }));
  }
}
