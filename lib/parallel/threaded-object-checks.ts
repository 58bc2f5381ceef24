import type { CheckRunner } from '../gate/decide.js';
import { objectFile } from '../storage/object-file.js';
import { runChecksInParallel } from './parallel-checks.js';

/** Where worker threads find the staged objects: the bucket, and an endpoint other than AWS's. */
export interface S3Location {
  readonly bucket: string;
  readonly endpoint?: string;
}

/**
 * The validate Lambda's checks with `threads` vCPUs: this thread reads through the handler's
 * store, each worker opens the same objects with an S3 client of its own, every read pinned to
 * the listed ETag. One thread, or a partition the footers prove cheap, runs as before.
 */
export function threadedObjectChecks(location: S3Location, threads: number, minValues?: number): CheckRunner {
  return (store, contract, now, staged, facts) => runChecksInParallel(contract, now, staged.map((f) => objectFile(store, f)), {
    cores: threads,
    ...(facts ? { facts } : {}),
    ...(minValues === undefined ? {} : { minValues }),
    describe: (_, index) => {
      const { key, size, etag } = staged[index]!;
      return { kind: 's3', ...location, key, size, ...(etag === undefined ? {} : { etag }) };
    },
  });
}
