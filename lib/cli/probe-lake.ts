import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { GateError } from '../errors.js';
import { startS3Emulator } from '../local/s3-emulator.js';
import { lockServeDir } from '../local/serve-lock.js';
import type { ObjectStore } from '../storage/object-store.js';
import { createS3Client } from '../storage/s3-client.js';
import { s3ObjectStore } from '../storage/s3-object-store.js';
import { readServeEndpoint } from './serve-endpoint-file.js';

/** Where `probe` reads the lake: an endpoint, AWS, or (neither given) the lake `serve --dir` keeps. */
export interface LakeChoice {
  /** The directory `serve` keeps its lake in (`serve --dir`). */
  readonly dir: string;
  /** Set when --dir was given: it cannot go with --endpoint or --aws. */
  readonly dirGiven: boolean;
  readonly endpoint?: string;
  readonly aws?: boolean;
  readonly bucket?: string;
}

export interface OpenLake {
  readonly store: ObjectStore;
  /** For the report's first line: which lake this is. */
  readonly description: string;
  close(): Promise<void>;
}

const DEFAULT_BUCKET = 'lake';
const nothingToClose = async () => {};

export async function openProbeLake(choice: LakeChoice): Promise<OpenLake> {
  const chosen = [choice.dirGiven && '--dir', choice.endpoint !== undefined && '--endpoint', choice.aws && '--aws'].filter(Boolean);
  if (chosen.length > 1) throw new GateError('bad_arguments', `pass one of --dir, --endpoint and --aws, not ${chosen.join(' and ')}`);
  const bucket = choice.bucket ?? DEFAULT_BUCKET;
  if (choice.endpoint !== undefined || choice.aws) {
    const store = s3ObjectStore({ client: createS3Client({ endpoint: choice.endpoint }), bucket });
    return { store, description: choice.aws ? `s3://${bucket} on AWS` : `s3://${bucket} at ${choice.endpoint}`, close: nothingToClose };
  }
  return openServeLake(choice.dir, choice.bucket);
}

/**
 * The lake `serve` keeps in `<serveDir>/buckets/<bucket>/`, in the emulator's own file format:
 * through the running serve when there is one, otherwise through a private emulator on the same
 * files, holding the directory's serve lock meanwhile so no serve writes under it.
 */
async function openServeLake(serveDir: string, bucketOption: string | undefined): Promise<OpenLake> {
  const served = await readServeEndpoint(serveDir);
  if (served) {
    const bucket = bucketOption ?? served.bucket;
    const store = s3ObjectStore({ client: createS3Client({ endpoint: served.endpoint }), bucket });
    return { store, description: `s3://${bucket} of the serve running on ${serveDir} (${served.endpoint})`, close: nothingToClose };
  }
  const bucket = bucketOption ?? DEFAULT_BUCKET;
  const bucketDir = join(serveDir, 'buckets', bucket);
  if (!(await stat(bucketDir).catch(() => undefined))?.isDirectory()) {
    throw new GateError('path_not_found', `${bucketDir} does not exist: there is no local lake (bucket "${bucket}") in ${serveDir}. Start \`contract-gate serve --dir ${serveDir}\` once, give the directory serve uses with --dir and its bucket with --bucket, or probe an endpoint with --endpoint <url> or AWS with --aws`, { context: { path: bucketDir } });
  }
  const lock = await lockServeDir(serveDir).catch((error: unknown) => {
    if (!(error instanceof GateError && error.code === 'bad_arguments')) throw error;
    throw new GateError('bad_arguments', `${serveDir} is in use by a contract-gate serve that left no serve.json (an older version?): pass --endpoint <its URL>`, { cause: error });
  });
  try {
    const emulator = await startS3Emulator({ dir: join(serveDir, 'buckets'), buckets: [bucket], port: 0 });
    const store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket });
    return {
      store,
      description: `s3://${bucket} in ${serveDir} (no serve running)`,
      close: async () => {
        await emulator.stop();
        await lock.release();
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
