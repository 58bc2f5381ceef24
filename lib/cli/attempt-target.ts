import { GateError } from '../errors.js';
import { DEFAULT_LAYOUT } from '../gate/gate-layout.js';
import { parseAttemptKey, type AttemptRef } from '../gate/quarantine-attempt.js';

export interface AttemptTarget {
  readonly bucket: string;
  readonly ref: AttemptRef;
  /** The folder as given back in messages, `s3://<bucket>/<prefix>`. */
  readonly url: string;
}

const EXPECTED = `s3://<bucket>/${DEFAULT_LAYOUT.quarantine}<name>/v<major>/<partition>/<attempt>/`;

/** The quarantine attempt folder `redrive` and `release` act on, checked before anything is read. */
export function attemptTarget(url: string | undefined, usage: string): AttemptTarget {
  if (url === undefined) throw new GateError('bad_arguments', `name the quarantine attempt folder, ${EXPECTED}\nusage: ${usage}`);
  const parts = /^s3:\/\/([^/]+)\/(.+)$/.exec(url);
  if (!parts) throw new GateError('bad_arguments', `"${url}" is not an s3:// URL of a quarantine attempt folder: expected ${EXPECTED}`);
  const [, bucket = '', key = ''] = parts;
  try {
    const ref = parseAttemptKey(DEFAULT_LAYOUT, key);
    return { bucket, ref, url: `s3://${bucket}/${ref.prefix}` };
  } catch (error) {
    throw new GateError('bad_arguments', `s3://${bucket}/${key} is not a quarantine attempt folder: expected ${EXPECTED}, the attempt like 20261130T050000Z-0e98b8a5`, { cause: error });
  }
}
