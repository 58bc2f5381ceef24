import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeServeEndpoint } from '../../lib/cli/serve-endpoint-file.js';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { runCaptured } from './run-captured.js';
import { buildStatusLake, cellsOf, EXPECTED, expectedCells, figcaptionOf, NOW_TEXT, sectionOf } from './status-lake.js';

// `contract-gate status --from <the directory serve keeps>`: through the serve running on it
// (found by its serve.json), and, once it stopped, on its files, with links to where serve listens.
// No --contracts anywhere: the registry is in the bucket.

const SERVE_ORIGIN = 'http://127.0.0.1:4566';
let root: string;
let serveDir: string;
let gate: LocalGate | undefined;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cg-status-serve-'));
  serveDir = join(root, 'serve');
  gate = await buildStatusLake(root);
}, 120_000);
afterAll(() => gate?.stop());

const status = (...args: string[]) => runCaptured('status', ...args, '--now', NOW_TEXT);
const page = (path: string) => readFileSync(path, 'utf8');

describe('contract-gate status --from <serve dir>, while serve runs on it', () => {
  it('reads the lake through that serve and links to its endpoint, with the registry\'s contract and no warning', async () => {
    // As `serve` announces itself (startLocalGate alone does not).
    const announced = await writeServeEndpoint(serveDir, { endpoint: gate!.endpoint, bucket: 'lake' });
    const out = join(root, 'running.html');
    try {
      const { code, stdout, stderr } = await status('--from', serveDir, '--out', out);
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      expect(stdout).toBe(`wrote the status of s3://lake of the serve running on ${serveDir} (${gate!.endpoint}) to ${out}: 1 dataset version, 5 partitions, 2 notifications\n`);
    } finally {
      await announced.remove();
    }
    expect(Object.fromEntries(cellsOf(page(out)).filter((c) => c.partition in EXPECTED).map((c) => [c.partition, c.state]))).toEqual(EXPECTED);
    expect(sectionOf(page(out), 'shipments')).toContain('contract 1.2.0, owner logistics');
    expect(figcaptionOf(page(out), 'shipments')).toContain("the contract's min_rows 50 to max_rows 400");
    expect(expectedCells(page(out))['dt=2026-11-26']!.href).toBe(`${gate!.endpoint}/_gate/object?key=published%2Fshipments%2Fv1%2Fdt%3D2026-11-26%2F_SUCCESS`);
    for (const { href } of cellsOf(page(out))) expect((await fetch(href)).status, href).toBe(200);
  });
});

describe('contract-gate status --from <serve dir>, with no serve running', () => {
  beforeAll(async () => {
    await gate!.stop();
    gate = undefined;
  });

  it('reads its files, warns that the links go to where serve listens, and leaves the directory unlocked', async () => {
    const out = join(root, 'stopped.html');
    const { code, stdout, stderr } = await status('--from', serveDir, '--out', out);
    expect(code).toBe(0);
    expect(stderr).toBe(`no serve is running on ${serveDir}: the page links to ${SERVE_ORIGIN}, where \`contract-gate serve --dir ${serveDir}\` serves this lake (or pass --link-base)\n`);
    expect(stdout).toBe(`wrote the status of s3://lake in ${serveDir} (no serve running) to ${out}: 1 dataset version, 5 partitions, 2 notifications\n`);
    expect(Object.fromEntries(cellsOf(page(out)).filter((c) => c.partition in EXPECTED).map((c) => [c.partition, c.state]))).toEqual(EXPECTED);
    expect(figcaptionOf(page(out), 'shipments')).toContain("the contract's min_rows 50 to max_rows 400");
    expect(existsSync(join(serveDir, 'serve.pid'))).toBe(false);
    // A serve started on the directory again (here on a free port, not 4566) answers every link.
    const again = await startLocalGate({ dir: serveDir, contractsDir: join(root, 'contracts'), bucket: 'lake', port: 0, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
    try {
      for (const { href } of cellsOf(page(out))) {
        expect(href.startsWith(`${SERVE_ORIGIN}/`), href).toBe(true);
        expect((await fetch(`${again.endpoint}${href.slice(SERVE_ORIGIN.length)}`)).status, href).toBe(200);
      }
    } finally {
      await again.stop();
    }
  });

  it('says nothing of serve when --link-base says where the links go', async () => {
    const out = join(root, 'stopped-base.html');
    const { code, stderr } = await status('--from', serveDir, '--link-base', 'https://lake.example.com', '--out', out);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(expectedCells(page(out))['dt=2026-11-26']!.href).toBe('https://lake.example.com/published/shipments/v1/dt%3D2026-11-26/_SUCCESS');
  });

  it('reads the lake of a serve that kept it under another bucket name, and links to the pages serve answers for it', async () => {
    const other = join(root, 'serve-acme');
    cpSync(serveDir, other, { recursive: true });
    renameSync(join(other, 'buckets', 'lake'), join(other, 'buckets', 'acme'));
    const out = join(root, 'acme.html');
    const { code, stdout } = await status('--from', other, '--out', out);
    expect(code).toBe(0);
    expect(stdout).toContain(`wrote the status of s3://acme in ${other} (no serve running)`);
    expect(expectedCells(page(out))['dt=2026-11-26']!.href).toBe(`${SERVE_ORIGIN}/_gate/object?key=published%2Fshipments%2Fv1%2Fdt%3D2026-11-26%2F_SUCCESS`);
  });

  it('exits 2 while another process holds the directory without a serve.json, saying which options reach it', async () => {
    // The parent process is alive and is not this one: the lock is someone else's.
    writeFileSync(join(serveDir, 'serve.pid'), `${process.ppid}\n`);
    try {
      const { code, stderr } = await status('--from', serveDir, '--out', join(root, 'locked.html'));
      expect(code).toBe(2);
      expect(stderr).toBe(`contract-gate status: ${serveDir} is in use by a contract-gate serve that left no serve.json (an older version?): pass --from s3://lake --endpoint <its URL>\n`);
      expect(existsSync(join(root, 'locked.html'))).toBe(false);
    } finally {
      rmSync(join(serveDir, 'serve.pid'), { force: true });
    }
  });

  it('exits 2 for a serve directory that holds no bucket, with advice in status\'s own options', async () => {
    const empty = join(root, 'empty-serve');
    mkdirSync(join(empty, 'buckets'), { recursive: true });
    const { code, stderr } = await status('--from', empty, '--out', join(root, 'empty.html'));
    expect(code).toBe(2);
    expect(stderr).toContain(`--from ${empty}: there is no lake in it (no ${join(empty, 'buckets', 'lake')})`);
    expect(stderr).not.toMatch(/--bucket|--dir <|--aws/);
  });
});
