import { createHash } from 'node:crypto';
import { GateError } from '../errors.js';
import type { ObjectInfo, ObjectStore, ReadOptions, WriteOptions } from '../storage/object-store.js';

interface Written {
  readonly info: ObjectInfo;
  readonly bytes: Uint8Array;
}

/**
 * A store that reads the real one and keeps its own writes in memory: a `--dry-run` runs the very
 * code a real run does (claims are conditional creates, read back and replaced) and the bucket
 * never changes. Conditions are checked against what this run sees, the real objects under its
 * own writes, so the run takes the same branches a real one would. It has no `upload`, on purpose:
 * the real store's would write the bucket, and uploadChunks falls back to this put, in memory.
 */
export function dryRunStore(real: ObjectStore): ObjectStore {
  const written = new Map<string, Written | null>(); // null: deleted by this run
  const head = async (key: string): Promise<ObjectInfo | undefined> => {
    const own = written.get(key);
    return own === undefined ? real.head(key) : (own?.info ?? undefined);
  };
  const put = async (key: string, body: Uint8Array | string, options: WriteOptions = {}) => {
    const current = await head(key);
    if (options.ifNoneMatch === '*' && current) throw unmet(real, key, 'If-None-Match: *');
    if (options.ifMatch !== undefined && current?.etag !== options.ifMatch) throw unmet(real, key, `If-Match: ${options.ifMatch}`);
    const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
    const etag = `"${createHash('md5').update(bytes).digest('hex')}"`;
    written.set(key, { info: { key, size: bytes.length, etag, lastModified: new Date() }, bytes });
    return { etag };
  };
  return {
    location: real.location,
    head,
    async read(key, start, end, options: ReadOptions = {}) {
      const own = written.get(key);
      if (own === undefined) return real.read(key, start, end, options);
      if (own === null) throw new GateError('not_found', `read ${real.location}/${key}: no such key`);
      if (options.ifMatch !== undefined && own.info.etag !== options.ifMatch) throw unmet(real, key, `If-Match: ${options.ifMatch}`);
      return own.bytes.slice(start, end);
    },
    async *list(prefix) {
      const seen = new Map<string, ObjectInfo>();
      for await (const object of real.list(prefix)) seen.set(object.key, object);
      for (const [key, own] of written) if (key.startsWith(prefix)) (own ? seen.set(key, own.info) : seen.delete(key));
      yield* [...seen.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
    put,
    async copy(sourceKey, targetKey, options = {}) {
      const source = await head(sourceKey);
      if (!source) throw new GateError('not_found', `copy ${real.location}/${sourceKey}: no such key`);
      if (options.sourceIfMatch !== undefined && source.etag !== options.sourceIfMatch) throw unmet(real, sourceKey, `x-amz-copy-source-if-match: ${options.sourceIfMatch}`);
      const bytes = written.get(sourceKey)?.bytes ?? (await real.read(sourceKey, 0, source.size));
      return put(targetKey, bytes, options);
    },
    async delete(key, options: ReadOptions = {}) {
      const current = await head(key);
      if (options.ifMatch !== undefined && current && current.etag !== options.ifMatch) throw unmet(real, key, `If-Match: ${options.ifMatch}`);
      written.set(key, null);
    },
  };
}

function unmet(real: ObjectStore, key: string, condition: string): GateError {
  return new GateError('precondition_failed', `${real.location}/${key}: precondition failed (${condition})`);
}
