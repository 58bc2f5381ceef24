import type { DataFormat } from '../contract/model.js';
import type { PartitionValues } from '../contract/partition-template.js';
import { describeError, GateError } from '../errors.js';
import type { ByteSource } from '../formats/byte-source.js';
import { openTable, type TextLayout } from '../formats/open-table.js';
import { UnreadableError, type ColumnBatch, type FileSchema, type TableFile } from '../formats/table-file.js';
import { localPartitionFile } from '../storage/local-files.js';
import { readFooter } from '../formats/parquet-footer.js';
import { keysFromMetadata, mergeDeclared, type DeclaredKey } from './declared-keys.js';
import { detectFormat, HEAD_BYTES } from './detect-format.js';
import type { KeyTracker } from './key-tracker.js';
import type { SampleColumn } from './sample-stats.js';
import { SampleStats } from './sample-stats.js';
import type { SamplePartition } from './sample-partitions.js';

type SampleFile = SamplePartition['files'][number];

/** The one format every sample file is in; a mix cannot be one contract. */
export async function sampleFormat(partitions: readonly SamplePartition[]): Promise<DataFormat> {
  const found = new Map<DataFormat, string>();
  for (const file of partitions.flatMap((p) => p.files)) {
    const head = await withSource(file, 'file', async (source) => new Uint8Array(await source.slice(0, Math.min(HEAD_BYTES, file.size))));
    const format = detectFormat(file.path, head);
    if (!found.has(format)) found.set(format, file.path);
  }
  if (found.size === 1) return [...found.keys()][0]!;
  throw new GateError('bad_arguments', `the samples mix formats: ${[...found].map(([f, path]) => `${path} is ${f}`).join(', ')}; a contract has one`);
}

/** Reads every sample file once into the statistics the inference works from. */
export async function readSamples(partitions: readonly SamplePartition[], values: readonly (PartitionValues | undefined)[], format: DataFormat, distinctCap: number, layout: TextLayout = {}): Promise<SampleStats> {
  const source = format === 'parquet' ? 'typed' : format === 'csv' ? 'text' : 'dynamic';
  const stats = new SampleStats(source, distinctCap);
  // JSON Lines declares no columns: every key of every file is found first, so each column
  // is known, and an absent key counted as a null, from the first row on.
  const keys = source === 'dynamic' ? await jsonKeys(partitions) : [];
  if (format === 'parquet') stats.declare(await declaredKeys(partitions));
  for (const [i, partition] of partitions.entries()) {
    stats.startPartition(partition.dir, values[i]);
    for (const file of partition.files) {
      await scanFile(format, file, (schema) => {
        const columns: SampleColumn[] = schema.kind === 'dynamic' ? keys.map((name) => ({ name })) : fileColumns(schema);
        stats.addFile(columns);
        return columns.filter((c) => c.stored?.type.kind !== 'unsupported').map((c) => c.name);
      }, (batch) => stats.addBatch(batch.columns, batch.rowCount), layout);
    }
    stats.endPartition();
  }
  return stats;
}

/** A second pass for composite keys: feeds only their columns to a tracker. */
export async function trackKeys(partitions: readonly SamplePartition[], format: DataFormat, tracker: KeyTracker, columns: readonly string[], layout: TextLayout = {}): Promise<void> {
  for (const partition of partitions) {
    for (const file of partition.files) await scanFile(format, file, () => columns, (batch) => tracker.observe(batch.columns, batch.rowCount), layout);
    tracker.endPartition();
  }
}

function fileColumns(schema: Exclude<FileSchema, { kind: 'dynamic' }>): SampleColumn[] {
  if (schema.kind === 'text') return schema.columns.map((name) => ({ name }));
  return schema.columns.map((c) => ({ name: c.name, stored: { type: c.type, physical: c.physical } }));
}

/** The keys the Parquet files' writers declared in their footers (see declared-keys.ts). */
async function declaredKeys(partitions: readonly SamplePartition[]): Promise<DeclaredKey[]> {
  const declared: DeclaredKey[] = [];
  const files = partitions.flatMap((p) => p.files);
  for (const file of files) {
    const metadata = await withSource(file, 'parquet', (source) => readFooter(source, {}));
    const names = new Set(metadata.schema.slice(1).map((element) => element.name));
    mergeDeclared(declared, keysFromMetadata(metadata.key_value_metadata ?? [], names));
  }
  for (const key of declared) key.of = files.length;
  return declared;
}

async function jsonKeys(partitions: readonly SamplePartition[]): Promise<string[]> {
  const keys = new Set<string>();
  for (const file of partitions.flatMap((p) => p.files)) {
    await scanFile('jsonl', file, () => [], (batch) => batch.keys?.forEach((key) => keys.add(key)));
  }
  return [...keys];
}

/**
 * Reads one file's batches of the columns `pick` chooses from its schema. A file or a row
 * the engine's reader cannot read stops the run, naming the file: a sample that would fail as
 * `unreadable` can prove no rule.
 */
async function scanFile(format: DataFormat, file: SampleFile, pick: (schema: FileSchema) => readonly string[], onBatch: (batch: ColumnBatch) => void, layout: TextLayout = {}): Promise<void> {
  await withTable(format, file, layout, async (table) => {
    const columns = pick(await table.schema());
    for await (const batch of table.batches(columns)) {
      const bad = batch.unreadableRows?.[0];
      if (bad) throw new GateError('bad_arguments', `${file.path}: line ${bad.line} cannot be read as ${format}: ${bad.reason}`);
      onBatch(batch);
    }
  });
}

async function withTable(format: DataFormat, file: SampleFile, layout: TextLayout, work: (table: TableFile) => Promise<void>): Promise<void> {
  await withSource(file, format, (source) => work(openTable(format, source, layout)));
}

/** Opens a file for `work`; a reader's failure becomes an error naming the file. */
async function withSource<T>(file: SampleFile, format: string, work: (source: ByteSource) => Promise<T>): Promise<T> {
  const opened = await localPartitionFile(file.path, file.size).open();
  try {
    return await work(opened.source);
  } catch (error) {
    if (error instanceof GateError) throw error;
    const reason = error instanceof UnreadableError ? error.message : `the reader failed: ${describeError(error)}`;
    throw new GateError('bad_arguments', `${file.path}: cannot be read as ${format}: ${reason}`, { cause: error, context: { path: file.path } });
  } finally {
    await opened.close();
  }
}
