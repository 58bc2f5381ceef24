import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startS3Emulator } from '../../lib/local/s3-emulator.js';
import { runCaptured } from './run-captured.js';

// What a user sees when the S3 side of a command is not there or not set up: an endpoint nobody
// listens on (a real port, bound and closed again), no region, no credentials. The dead endpoint
// is said first, before any region, credential or IAM advice.

const GOOD = 'contracts/examples/orders/good/dt=2026-11-29';
let root: string;
let deadPort: number;
let dead: string;

/** A port something listened on a moment ago and nothing does now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A contract whose volume_vs_history rule makes `validate --history` read the lake. */
function historyContract(): string {
  const dir = mkdtempSync(join(root, 'contract-'));
  const text = readFileSync('contracts/orders.v1.yaml', 'utf8').replace('  min_rows: 1000\n', '  min_rows: 1000\n  volume_vs_history: { lookback: 7, min_ratio: 0.5, max_ratio: 2 }\n');
  writeFileSync(join(dir, 'orders.v1.yaml'), text);
  return join(dir, 'orders.v1.yaml');
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cg-storage-advice-'));
  deadPort = await closedPort();
  dead = `http://127.0.0.1:${deadPort}`;
});

beforeEach(() => {
  // No region, credentials or endpoint from this machine's own AWS set-up, and no metadata service to wait for.
  for (const name of ['AWS_REGION', 'AWS_DEFAULT_REGION', 'AWS_PROFILE', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN', 'AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_S3']) vi.stubEnv(name, undefined);
  vi.stubEnv('AWS_CONFIG_FILE', join(tmpdir(), 'cg-no-such-aws-config'));
  vi.stubEnv('AWS_SHARED_CREDENTIALS_FILE', join(tmpdir(), 'cg-no-such-aws-credentials'));
  vi.stubEnv('AWS_EC2_METADATA_DISABLED', 'true');
});
afterEach(() => vi.unstubAllEnvs());

const serveHint = (command: string, port: number, source: string) =>
  `contract-gate ${command}: nothing answers at 127.0.0.1:${port} (${source} names it): is \`contract-gate serve\` running? Start it in another terminal (npx contract-gate serve)`;

describe('an --endpoint nobody listens on', () => {
  it('drop says nothing answers there, that serve may not be running, and that nothing was uploaded', async () => {
    const partition = join(mkdtempSync(join(root, 'drop-')), 'dt=2026-11-29');
    cpSync(GOOD, partition, { recursive: true });
    const { code, stdout, stderr } = await runCaptured('drop', '--contract', 'contracts/orders.v1.yaml', partition, '--to', 's3://lake', '--endpoint', dead);
    expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
    expect(stderr.startsWith(`${serveHint('drop', deadPort, '--endpoint')} and pass --endpoint with the address it prints, then run this again\n`)).toBe(true);
    expect(stderr).toContain(`connect ECONNREFUSED 127.0.0.1:${deadPort}. Nothing was uploaded`);
    expect(stderr).not.toMatch(/s3:GetObject|IAM|credentials|region/i);
  });

  it('publish, probe and status say the same before anything else', async () => {
    const runs = {
      publish: await runCaptured('publish', 'contracts/orders.v1.yaml', '--to', 's3://lake', '--endpoint', dead),
      probe: await runCaptured('probe', '--contracts', 'contracts', '--endpoint', dead, '--now', '2026-11-30T06:00:00Z'),
      status: await runCaptured('status', '--from', 's3://lake', '--endpoint', dead, '--out', join(root, 'status.html')),
    };
    for (const [command, { code, stderr }] of Object.entries(runs)) {
      expect({ command, code, first: stderr.split('\n')[0] }).toEqual({ command, code: 2, first: `${serveHint(command, deadPort, '--endpoint')} and pass --endpoint with the address it prints, then run this again` });
      expect(stderr).toContain(`connect ECONNREFUSED 127.0.0.1:${deadPort}`);
    }
  });
});

describe('AWS_ENDPOINT_URL_S3 naming a port nobody listens on', () => {
  it('validate --history says nothing answers there before the missing region, which the SDK stops at first', async () => {
    vi.stubEnv('AWS_ENDPOINT_URL_S3', dead);
    const { code, stderr } = await runCaptured('validate', '--contract', historyContract(), GOOD, '--history', 's3://lake', '--now', '2026-11-30T06:00:00Z');
    expect(code).toBe(2);
    const lines = stderr.split('\n');
    // validate has no --endpoint: the advice does not send the user looking for one.
    expect(lines[0]).toBe(`${serveHint('validate', deadPort, 'AWS_ENDPOINT_URL_S3')}, then run this again`);
    expect(lines[1]).toBe('  once it answers: no AWS region is configured, so the AWS SDK cannot send the request ("Region is missing"); set AWS_REGION and run the command again:');
    expect(stderr).toContain('(list s3://lake/published/orders/v1/: Region is missing)');
  });

  it('says nothing answers there before the missing credentials too', async () => {
    vi.stubEnv('AWS_ENDPOINT_URL_S3', dead);
    vi.stubEnv('AWS_REGION', 'eu-central-1');
    const { code, stderr } = await runCaptured('validate', '--contract', historyContract(), GOOD, '--history', 's3://lake', '--now', '2026-11-30T06:00:00Z');
    expect(code).toBe(2);
    expect(stderr.indexOf('nothing answers at')).toBe('contract-gate validate: '.length);
    expect(stderr.indexOf('nothing answers at')).toBeLessThan(stderr.indexOf('no AWS credentials found'));
  });
});

describe('no region configured', () => {
  it('says how to set it, with the command that failed', async () => {
    const contract = historyContract();
    const { code, stderr } = await runCaptured('validate', '--contract', contract, GOOD, '--history', 's3://lake', '--now', '2026-11-30T06:00:00Z');
    expect(code).toBe(2);
    expect(stderr).toBe(
      'contract-gate validate: no AWS region is configured, so the AWS SDK cannot send the request ("Region is missing"); set AWS_REGION and run the command again:\n' +
        `  AWS_REGION=eu-central-1 contract-gate validate --contract ${contract} ${GOOD} --history s3://lake --now 2026-11-30T06:00:00Z\n` +
        '  or set "region = eu-central-1" under [default] (or your AWS_PROFILE\'s section) in ~/.aws/config\n' +
        '  (list s3://lake/published/orders/v1/: Region is missing)\n',
    );
  });
});

describe('no credentials for an endpoint on this machine that answers', () => {
  let listening: Server;
  let port: number;
  beforeAll(async () => {
    // Anything that accepts connections: the SDK gives up on credentials before it sends a byte.
    listening = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
    port = (listening.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => listening.close(() => resolve())));

  it('says the local serve takes any key, and shows the command with one', async () => {
    vi.stubEnv('AWS_ENDPOINT_URL_S3', `http://127.0.0.1:${port}`);
    vi.stubEnv('AWS_REGION', 'eu-central-1');
    const contract = historyContract();
    const { code, stderr } = await runCaptured('validate', '--contract', contract, GOOD, '--history', 's3://lake');
    expect(code).toBe(2);
    expect(stderr.split('\n').slice(0, 2)).toEqual([
      `contract-gate validate: no AWS credentials found; the local serve at http://127.0.0.1:${port} (AWS_ENDPOINT_URL_S3) takes any key:`,
      `  AWS_ACCESS_KEY_ID=local AWS_SECRET_ACCESS_KEY=local contract-gate validate --contract ${contract} ${GOOD} --history s3://lake`,
    ]);
  });
});

describe('a bucket the endpoint does not keep', () => {
  it('says there is no such bucket there, and which bucket a local serve keeps', async () => {
    const emulator = await startS3Emulator({ dir: mkdtempSync(join(root, 'emulator-')), buckets: ['lake'], port: 0 });
    try {
      const { code, stderr } = await runCaptured('status', '--from', 's3://lakes', '--endpoint', emulator.endpoint, '--out', join(root, 'no-bucket.html'));
      expect({ code, stderr }).toEqual({
        code: 2,
        stderr: `contract-gate status: no such bucket at ${emulator.endpoint} (The specified bucket does not exist): check the bucket name (a local serve keeps one bucket: "lake", or the one its --bucket names)\n` +
          '  (list s3://lakes/_contracts/: The specified bucket does not exist)\n',
      });
    } finally {
      await emulator.stop();
    }
  });
});
