import { parentPort } from 'node:worker_threads';
import { byteSourceFromBytes } from '../../lib/formats/byte-source.js';
import { openParquetFile } from '../../lib/formats/parquet-file.js';
import { UnreadableError, type RowGroupInfo } from '../../lib/formats/table-file.js';

/**
 * Reads each file it is sent the way the engine does (schema, then every column's batches) and
 * reports what happened. Anything but a clean read or an UnreadableError is a crash.
 */
export interface FuzzTask {
  readonly id: number;
  readonly bytes: Uint8Array;
}

export interface WorkerReply {
  readonly id: number;
  readonly outcome: 'read' | 'unreadable' | 'CRASH';
  readonly detail: string;
  readonly ms: number;
}

/**
 * Reads every column; with `keysAsHashes`, string and binary columns as a one-column grain would
 * be read (hashed from the page bytes), so that decoder meets the hostile files too. Every row
 * group's dictionaries are read as the engine reads them to prove enum and pattern rules.
 */
async function readLikeTheEngine(bytes: Uint8Array, keysAsHashes: boolean): Promise<Omit<WorkerReply, 'id' | 'ms'>> {
  const table = openParquetFile(byteSourceFromBytes(bytes));
  try {
    const schema = await table.schema();
    if (schema.kind !== 'typed') return { outcome: 'CRASH', detail: `schema kind ${schema.kind}` };
    let rows = 0;
    const hashOnly = new Set(keysAsHashes ? schema.columns.filter((c) => c.type.kind === 'string' || c.type.kind === 'binary').map((c) => c.name) : []);
    const names = schema.columns.map((c) => c.name);
    // Every dictionary is read too, as the engine does to prove enum and pattern rules.
    const select = async (group: RowGroupInfo) => {
      for (const name of names) await group.dictionary?.(name);
      return names;
    };
    for await (const batch of table.batches(names, { hashOnly, select })) rows += batch.rowCount;
    return { outcome: 'read', detail: `${rows} rows` };
  } catch (error) {
    if (error instanceof UnreadableError) return { outcome: 'unreadable', detail: error.message };
    const where = error instanceof Error ? (error.stack?.split('\n')[1]?.trim() ?? '') : '';
    return { outcome: 'CRASH', detail: `${error instanceof Error ? `${error.name}: ${error.message}` : String(error)} ${where}` };
  }
}

parentPort?.on('message', async (task: FuzzTask) => {
  const started = performance.now();
  const result = await readLikeTheEngine(task.bytes, task.id % 2 === 1);
  parentPort?.postMessage({ id: task.id, ...result, ms: performance.now() - started } satisfies WorkerReply);
});
