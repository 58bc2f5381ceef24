import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, statSync } from 'node:fs';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { ObjectCreatedEvent } from '../lib/local/emulator-protocol.js';
import { s3Notification } from '../lib/local/s3-notification.js';
import { publishAttributes } from '../test/fixtures/loopback-sns.js';
import { DATASET, expectedViolations, PARTITION, type Variant } from './lambda-data.js';

/**
 * A drop as a producer makes it, the event the deployed function receives for it, and the check
 * that the handler did with it what the gate promises: publish a good partition, quarantine a bad
 * one with exactly the planted violations.
 */
export const BUCKET = 'lake';
export const STAGING = `staging/${DATASET}/v1/${PARTITION}/`;
const PUBLISHED = `published/${DATASET}/v1/${PARTITION}/`;
const QUARANTINE = `quarantine/${DATASET}/v1/${PARTITION}/`;
const DATA_KEY = 'part-0000.parquet';

/** Uploads the data file, then the empty `_READY`; resolves with the marker's object-created event. */
export async function stageDrop(client: S3Client, path: string, markerCreated: Promise<ObjectCreatedEvent>): Promise<ObjectCreatedEvent> {
  // Streamed: a bench holding the partition in memory would make its own RSS the children's (see invoke.mjs).
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${STAGING}${DATA_KEY}`, Body: createReadStream(path), ContentLength: statSync(path).size }));
  await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `${STAGING}_READY`, Body: new Uint8Array(0), ContentLength: 0 }));
  // The event comes over the emulator's IPC channel; a bench that waits for it forever tells nobody anything.
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, fail) => (timer = setTimeout(() => fail(new Error('the endpoint sent no object-created event for _READY within 30 s')), 30_000)));
  return Promise.race([markerCreated, late]).finally(() => clearTimeout(timer));
}

/**
 * What the validate function gets in the deployment: S3's notification (the exact shape, from the
 * emulator's event, as `serve` builds it) as the body of an SQS message of the ready queue.
 */
export function sqsEvent(created: ObjectCreatedEvent): { Records: unknown[] } {
  const body = JSON.stringify(s3Notification(created));
  const sent = String(Date.now());
  return {
    Records: [{
      messageId: randomUUID(), receiptHandle: `bench-${randomUUID()}`, body,
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: sent, SenderId: 'AROAEXAMPLE:s3', ApproximateFirstReceiveTimestamp: sent },
      messageAttributes: {}, md5OfBody: createHash('md5').update(body).digest('hex'),
      eventSource: 'aws:sqs', eventSourceARN: 'arn:aws:sqs:eu-west-1:000000000000:contract-gate-bench-ready', awsRegion: 'eu-west-1',
    }],
  };
}

export interface HandlerResult {
  /** The process's own peak resident set (VmHWM), at the end of the call. */
  readonly peak_rss_mb: number;
  /** CPU time of all its threads, import included. */
  readonly cpu_ms: number;
  readonly init_ms: number;
  readonly handler_ms: number;
  /** The handler's main thread during the call: on a CPU, and runnable but queued behind other processes. */
  readonly on_cpu_ms: number;
  readonly queued_ms: number;
  /** Peaks sampled every 50 ms during the call. */
  readonly memory: { readonly heap_used_mb: number; readonly external_mb: number; readonly array_buffers_mb: number; readonly os_threads: number };
  /** The threads the handler's own rule (checkThreads) picks for this memory and these CPUs; 1 where it has none. */
  readonly check_threads: number;
  /** OS threads at the peak beyond those before the call: a worker thread shows here. */
  readonly threads_started: number;
  readonly result: unknown;
  readonly error: string | null;
}

/** Every way the invocation fell short of the gate's promise; empty when it did right. */
export async function outcomeProblems(client: S3Client, variant: Variant, rows: number, handled: HandlerResult, notices: readonly URLSearchParams[]): Promise<string[]> {
  if (handled.error) return [`the handler threw: ${handled.error}`];
  const problems: string[] = [];
  if (JSON.stringify(handled.result) !== JSON.stringify({ batchItemFailures: [] })) problems.push(`the handler returned ${JSON.stringify(handled.result)}, not an empty batchItemFailures`);
  const keys = await listKeys(client);
  if (keys.some((k) => k.startsWith(STAGING))) problems.push(`staging still holds ${keys.filter((k) => k.startsWith(STAGING)).join(', ')}`);
  const outcome = notices.map((n) => publishAttributes(n).outcome ?? '?');
  const expected = variant === 'good' ? 'published' : 'quarantined';
  if (outcome.length !== 1 || outcome[0] !== expected) problems.push(`notices: [${outcome.join(', ')}], expected one "${expected}"`);
  if (variant === 'good') {
    for (const name of [DATA_KEY, '_SUCCESS']) if (!keys.includes(`${PUBLISHED}${name}`)) problems.push(`not published: ${PUBLISHED}${name} is missing`);
    return problems;
  }
  const reportKey = keys.find((k) => k.startsWith(QUARANTINE) && k.endsWith('/_REPORT.json'));
  if (!reportKey) return [...problems, `not quarantined: no _REPORT.json under ${QUARANTINE}`];
  const report = JSON.parse(await readText(client, reportKey)) as { rows: number; violations: { rule: string; column?: string; count: number }[] };
  const found = report.violations.map((v) => `${v.rule} ${v.column ?? '-'}=${v.count}`).sort();
  if (found.join(';') !== expectedViolations(rows).join(';')) problems.push(`violations [${found.join(', ')}], planted [${expectedViolations(rows).join(', ')}]`);
  if (report.rows !== rows) problems.push(`the report counts ${report.rows} rows, not ${rows}`);
  return problems;
}

async function listKeys(client: S3Client): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }));
    keys.push(...(page.Contents ?? []).map((o) => o.Key!));
    token = page.NextContinuationToken;
  } while (token);
  return keys;
}

async function readText(client: S3Client, key: string): Promise<string> {
  const answer = await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
  return answer.Body!.transformToString();
}
