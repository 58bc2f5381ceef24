import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Emulator, type S3Emulator } from '../../lib/local/s3-emulator.js';
import { s3Notification } from '../../lib/local/s3-notification.js';
import { createS3Client } from '../../lib/storage/s3-client.js';
import { s3ObjectStore } from '../../lib/storage/s3-object-store.js';
import { dropExample } from '../fixtures/gate-fixture.js';
import { publishAttributes, startLoopbackSns } from '../fixtures/loopback-sns.js';
import { assetDirectory, synthGate, type GateSynth } from './synth-gate.js';

let gate: GateSynth;
let emulator: S3Emulator;
let sns: Awaited<ReturnType<typeof startLoopbackSns>>;

beforeAll(async () => {
  gate = await synthGate('dev');
  emulator = await startS3Emulator({ dir: mkdtempSync(join(tmpdir(), 'cg-bundle-s3-')), buckets: ['lake'] });
  sns = await startLoopbackSns();
});
afterAll(async () => {
  await sns?.stop();
  await emulator?.stop();
  gate?.dispose();
});

describe('the bundled validate function', () => {
  // Copied out of the project, so the bundle cannot lean on anything but itself, as on Lambda.
  async function invoke(day: string, extraEnv: Record<string, string>): Promise<{ rule: string; column?: string; count: number }[]> {
    const task = mkdtempSync(join(tmpdir(), 'cg-lambda-task-'));
    cpSync(assetDirectory(gate, gate.logicalId(gate.stack.gate.validate.function)), task, { recursive: true });
    const store = s3ObjectStore({ client: createS3Client({ endpoint: emulator.endpoint }), bucket: 'lake' });
    const prefix = `staging/orders/v1/dt=${day}/`;
    await dropExample(store, 'bad', prefix);
    const marker = await store.head(`${prefix}_READY`);
    const event = s3Notification({ bucket: 'lake', key: `${prefix}_READY`, size: marker!.size, etag: marker!.etag, eventName: 'ObjectCreated:Put', eventTime: new Date().toISOString() });
    writeFileSync(join(task, 'invoke.mjs'), `import { handler } from './validate.mjs';\nconsole.log(JSON.stringify(await handler(${JSON.stringify({ Records: [{ eventSource: 'aws:sqs', messageId: 'm-1', body: JSON.stringify(event) }] })})));\n`);
    const env = {
      PATH: process.env.PATH, GATE_BUCKET: 'lake', GATE_TOPIC_ARN: 'arn:aws:sns:eu-west-1:123456789012:gate',
      AWS_ENDPOINT_URL_S3: emulator.endpoint, AWS_ENDPOINT_URL_SNS: sns.endpoint, AWS_REGION: 'eu-west-1',
      AWS_ACCESS_KEY_ID: 'AKIDTEST', AWS_SECRET_ACCESS_KEY: 'secret', ...extraEnv,
    };
    const { stdout } = await promisify(execFile)(process.execPath, ['invoke.mjs'], { cwd: task, env });
    expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ batchItemFailures: [] });
    const reports: { key: string; size: number }[] = [];
    for await (const object of store.list(`quarantine/orders/v1/dt=${day}/`)) if (object.key.endsWith('_REPORT.json')) reports.push(object);
    expect(reports).toHaveLength(1);
    expect(publishAttributes(sns.published.at(-1)!)).toMatchObject({ contract: 'orders', outcome: 'quarantined' });
    const report = JSON.parse(new TextDecoder().decode(await store.read(reports[0]!.key, 0, reports[0]!.size))) as { violations: { rule: string; column?: string; count: number }[] };
    return report.violations.map(({ rule, column, count }) => ({ rule, column, count }));
  }

  it('starts with no node_modules in reach and handles a real S3 event against the local endpoint', async () => {
    const violations = await invoke('2026-11-29', {});
    expect(violations.length).toBeGreaterThan(0);
  });

  it('checks with its bundled worker thread where two threads are configured, to the same verdict', async () => {
    // Days due after the check: both judged at the check time, so only the threads differ.
    const single = await invoke('2099-01-01', { GATE_CHECK_THREADS: '1' });
    const threaded = await invoke('2099-01-02', { GATE_CHECK_THREADS: '2', GATE_PARALLEL_MIN_VALUES: '1' });
    expect(threaded).toEqual(single);
  });
});
