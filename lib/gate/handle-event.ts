import { describeError } from '../errors.js';
import { processMarker, type GateDeps, type MarkerResult } from './process-marker.js';
import { parseStorageEvent } from './storage-events.js';

export interface EventOutcome {
  readonly results: readonly MarkerResult[];
  readonly failures: readonly { readonly key: string; readonly messageId?: string; readonly error: string }[];
  readonly ignored: readonly string[];
  /** For an SQS event source: the messages to deliver again (partial batch failure). */
  readonly batchItemFailures: readonly { readonly itemIdentifier: string }[];
}

/**
 * Runs the gate for every marker an event names. One failing marker does not stop the others;
 * its SQS message is reported back so only it is delivered again.
 */
export async function handleStorageEvent(deps: GateDeps & { readonly bucket: string }, event: unknown): Promise<EventOutcome> {
  const parsed = parseStorageEvent(event);
  const results: MarkerResult[] = [];
  const failures: { key: string; messageId?: string; error: string }[] = [];
  const ignored = [...parsed.ignored];
  for (const ref of parsed.refs) {
    if (ref.bucket !== deps.bucket) {
      ignored.push(`s3://${ref.bucket}/${ref.key}: not the gate's bucket ${deps.bucket}`);
      continue;
    }
    try {
      results.push(await processMarker(deps, ref.key));
    } catch (error) {
      failures.push({ key: ref.key, ...(ref.messageId ? { messageId: ref.messageId } : {}), error: describeError(error) });
    }
  }
  const retry = new Set(failures.flatMap((f) => (f.messageId ? [f.messageId] : [])));
  return { results, failures, ignored, batchItemFailures: [...retry].map((itemIdentifier) => ({ itemIdentifier })) };
}
