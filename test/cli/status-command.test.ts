import { existsSync, mkdirSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocalGate } from '../../lib/local/local-gate.js';
import { runCaptured } from './run-captured.js';
import { buildStatusLake, cellsOf, copyLake, EXPECTED, expectedCells, figcaptionOf, NOW_TEXT, sectionOf, type PageCell } from './status-lake.js';

// `contract-gate status`, run in-process on a lake the local gate built from DuckDB files:
// through the endpoint, with --link-base, from a copy of the bucket in a plain directory, its
// errors, and --contracts for a dataset the registry lacks. The serve directory: status-serve-dir.test.ts.

let root: string;
let gate: LocalGate;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cg-status-cmd-'));
  gate = await buildStatusLake(root);
}, 120_000);
afterAll(() => gate?.stop());

const status = (...args: string[]) => runCaptured('status', ...args, '--now', NOW_TEXT);
const page = (path: string) => readFileSync(path, 'utf8');
const stateOf = (cells: readonly PageCell[]) => Object.fromEntries(cells.filter((c) => c.partition in EXPECTED).map((c) => [c.partition, c.state]));
const ATTEMPT = String.raw`\d{8}T\d{6}Z-[0-9a-f]{8}`;

describe('contract-gate status --from s3://lake --endpoint <url>', () => {
  it('writes every partition of the dataset in its state, oldest first, and says what it wrote', async () => {
    const out = join(root, 'endpoint.html');
    const { code, stdout, stderr } = await status('--from', 's3://lake', '--endpoint', gate.endpoint, '--out', out);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(`wrote the status of s3://lake to ${out}: 1 dataset version, 5 partitions, 2 notifications\n`);
    const cells = cellsOf(page(out));
    expect(cells.map((c) => c.partition)).toEqual(Object.keys(EXPECTED).sort());
    expect(stateOf(cells)).toEqual(EXPECTED);
    expect(cells.map((c) => c.partition)).toEqual(cells.map((c) => c.partition).sort());
    expect(sectionOf(page(out), 'shipments')).toContain('contract 1.2.0, owner logistics');
    expect([...page(out).matchAll(/<tr data-kind="([a-z_]+)">/g)].map((m) => m[1])).toEqual(['verdict', 'verdict']);
  });

  it('links objects to <endpoint>/lake/<key> and listings to ListObjectsV2 on the endpoint, and every link opens', async () => {
    const out = join(root, 'endpoint-links.html');
    expect((await status('--from', 's3://lake', '--endpoint', `${gate.endpoint}/`, '--out', out)).code).toBe(0);
    const cell = expectedCells(page(out));
    expect(cell['dt=2026-11-26']!.href).toBe(`${gate.endpoint}/lake/published/shipments/v1/dt%3D2026-11-26/_SUCCESS`);
    expect(cell['dt=2026-11-27']!.href).toMatch(new RegExp(`^${gate.endpoint}/lake/quarantine/shipments/v1/dt%3D2026-11-27/${ATTEMPT}/_REPORT\\.html$`));
    expect(cell['dt=2026-11-29']!.href).toBe(`${gate.endpoint}/lake?list-type=2&prefix=staging%2Fshipments%2Fv1%2Fdt%3D2026-11-29%2F`);
    for (const { href, state } of cellsOf(page(out))) {
      const response = await fetch(href);
      expect(response.status, href).toBe(200);
      const body = await response.text();
      if (state === 'published') expect(JSON.parse(body).format).toBe('contract-gate/success@1');
      if (state === 'quarantined') expect(body).toContain('FAILED');
      if (state === 'in_staging') expect(body).toContain('part-0000.parquet');
    }
  });
});

describe('contract-gate status --link-base <url>', () => {
  it('links every key as <url>/<key>, each segment URL-encoded, without doubling the slash', async () => {
    const out = join(root, 'link-base.html');
    expect((await status('--from', 's3://lake', '--endpoint', gate.endpoint, '--link-base', 'https://lake.example.com/', '--out', out)).code).toBe(0);
    const cell = expectedCells(page(out));
    expect(cell['dt=2026-11-26']!.href).toBe('https://lake.example.com/published/shipments/v1/dt%3D2026-11-26/_SUCCESS');
    expect(cell['dt=2026-11-27']!.href).toMatch(new RegExp(`^https://lake\\.example\\.com/quarantine/shipments/v1/dt%3D2026-11-27/${ATTEMPT}/_REPORT\\.html$`));
    expect(cell['dt=2026-11-29']!.href).toBe('https://lake.example.com/staging/shipments/v1/dt%3D2026-11-29/');
    for (const { href } of cellsOf(page(out))) expect(new URL(href).pathname, href).not.toContain('//');
  });
});

describe('contract-gate status --from <a directory laid out like the bucket>', () => {
  let plain: string;
  beforeAll(async () => {
    plain = join(root, 'plain');
    await copyLake(gate.store, plain);
  });

  /** Every link, resolved as a browser resolves it against the page: files for objects, folders for listings. */
  function expectLinksOpen(out: string): void {
    for (const { href, state, partition } of cellsOf(page(out))) {
      expect(href, href).not.toMatch(/^([a-z]+:|\/)/);
      const target = fileURLToPath(new URL(href, pathToFileURL(out)));
      expect(existsSync(target), `${partition}: ${href}`).toBe(true);
      const object = state === 'published' || state === 'quarantined';
      expect(statSync(target).isFile(), `${partition}: ${href}`).toBe(object);
      if (!object) expect(href.endsWith('/'), href).toBe(true);
    }
  }

  it('links relative to the page written inside the lake, and every link opens a file or folder that is there', async () => {
    const out = join(plain, 'status.html');
    const { code, stdout, stderr } = await status('--from', plain, '--out', out);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(`wrote the status of ${plain} to ${out}: 1 dataset version, 5 partitions, 2 notifications\n`);
    const cells = cellsOf(page(out));
    expect(stateOf(cells)).toEqual(EXPECTED);
    const cell = expectedCells(page(out));
    expect(cell['dt=2026-11-26']!.href).toBe('published/shipments/v1/dt%3D2026-11-26/_SUCCESS');
    expect(cell['dt=2026-11-27']!.href).toMatch(new RegExp(`^quarantine/shipments/v1/dt%3D2026-11-27/${ATTEMPT}/_REPORT\\.html$`));
    expect(cell['dt=2026-11-29']!.href).toBe('staging/shipments/v1/dt%3D2026-11-29/');
    // Never arrived, so no folder of its own: the dataset's staging folder, where it would be.
    expect(cell['dt=2026-11-28']!.href).toBe('staging/shipments/v1/');
    expectLinksOpen(out);
  });

  it('links up and across to the lake when the page is written in another folder', async () => {
    const site = join(root, 'site', 'pages');
    mkdirSync(site, { recursive: true });
    const out = join(site, 'status.html');
    expect((await status('--from', plain, '--out', out)).code).toBe(0);
    expect(expectedCells(page(out))['dt=2026-11-26']!.href).toBe('../../plain/published/shipments/v1/dt%3D2026-11-26/_SUCCESS');
    expectLinksOpen(out);
  });

  it('takes --link-base over the relative links', async () => {
    const out = join(root, 'plain-base.html');
    expect((await status('--from', plain, '--link-base', 'https://lake.example.com', '--out', out)).code).toBe(0);
    expect(expectedCells(page(out))['dt=2026-11-26']!.href).toBe('https://lake.example.com/published/shipments/v1/dt%3D2026-11-26/_SUCCESS');
  });
});

describe('contract-gate status, when it cannot run', () => {
  it('exits 2 without --out, naming the option and the usage', async () => {
    const { code, stderr } = await status('--from', 's3://lake', '--endpoint', gate.endpoint);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^contract-gate status: --out is required: the file to write the page to\nusage: contract-gate status /);
  });

  it('exits 2 for a --from directory that does not exist, saying what --from can be', async () => {
    const missing = join(root, 'no-such-lake');
    const { code, stderr } = await status('--from', missing, '--out', join(root, 'missing.html'));
    expect(code).toBe(2);
    expect(stderr).toContain(`--from ${missing}: no such directory; give the directory \`serve --dir\` keeps`);
    expect(stderr).toContain('s3://<bucket>');
    expect(existsSync(join(root, 'missing.html'))).toBe(false);
  });

  it('exits 2 for --endpoint with a directory, which it does not go with', async () => {
    const { code, stderr } = await status('--from', join(root, 'plain'), '--endpoint', gate.endpoint, '--out', join(root, 'x.html'));
    expect(code).toBe(2);
    expect(stderr).toContain(`--endpoint goes with --from s3://<bucket>, not the directory ${join(root, 'plain')}`);
  });

  it('exits 2 for an --out in a folder that does not exist, naming the file, before it reads the lake', async () => {
    const out = join(root, 'no-such-folder', 'status.html');
    // An endpoint nothing listens on: had the lake been read first, the error would be about it.
    const { code, stderr } = await status('--from', 's3://lake', '--endpoint', 'http://127.0.0.1:9', '--out', out);
    expect(code).toBe(2);
    expect(stderr).toBe(`contract-gate status: ${out}: cannot write the status page: the folder ${join(root, 'no-such-folder')} does not exist (create it, or give --out a file in a folder that does)\n`);
  });

  it('exits 2 for a --now without an offset', async () => {
    const { code, stderr } = await runCaptured('status', '--from', 's3://lake', '--endpoint', gate.endpoint, '--out', join(root, 'now.html'), '--now', '2026-11-30T12:00:00');
    expect(code).toBe(2);
    expect(stderr).toContain('--now must be an ISO-8601 timestamp with an offset');
  });
});

const PARCELS = `name: parcels
version: 1.0.0
owner: { team: parcel-desk, notify: [parcels@example.com] }
produces: { format: parquet, partition: "dt={ds}" }
schema:
  columns:
    - { name: parcel_id, type: int64, required: true }
sla:
  arrival_by: "06:00"
  timezone: UTC
  min_rows: 10
  max_rows: 100
`;

describe('contract-gate status --contracts <dir>', () => {
  let lake: string;
  let contracts: string;
  beforeAll(async () => {
    lake = join(root, 'with-parcels');
    await copyLake(gate.store, lake);
    // Published by some other gate: the bucket holds it, this lake's registry does not.
    mkdirSync(join(lake, 'published', 'parcels', 'v1', 'dt=2026-11-29'), { recursive: true });
    writeFileSync(join(lake, 'published', 'parcels', 'v1', 'dt=2026-11-29', '_SUCCESS'), JSON.stringify({ format: 'contract-gate/success@1', rows: 75, decided_at: '2026-11-30T05:10:00Z', checks: { status: 'pass' } }));
    contracts = join(root, 'more-contracts');
    mkdirSync(contracts);
    writeFileSync(join(contracts, 'parcels.v1.yaml'), PARCELS);
    // A shipments contract the registry already holds (as 1.2.0): the registry's is the one shown.
    writeFileSync(join(contracts, 'shipments.v1.yaml'), readFileSync(join(root, 'contracts', 'shipments.v1.yaml'), 'utf8').replace('version: 1.2.0', 'version: 1.9.0').replace('min_rows: 50', 'min_rows: 5'));
  });

  it('without it, shows a dataset the registry lacks with no contract and no band', async () => {
    const out = join(root, 'parcels-bare.html');
    const { code, stdout } = await status('--from', lake, '--out', out);
    expect(code).toBe(0);
    expect(stdout).toContain(': 2 dataset versions, 6 partitions, 2 notifications\n');
    expect(sectionOf(page(out), 'parcels')).toContain('no contract of this major version in the registry');
    expect(cellsOf(page(out), 'parcels').map((c) => [c.partition, c.state])).toEqual([['dt=2026-11-29', 'published']]);
    expect(figcaptionOf(page(out), 'parcels')).toBe('Rows per partition of parcels v1; no contract of this major version is registered, so no row-count band.');
  });

  it('with it, draws that contract\'s min_rows..max_rows band and its calendar; the registry still speaks for shipments', async () => {
    const out = join(root, 'parcels-contract.html');
    expect((await status('--from', lake, '--contracts', contracts, '--out', out)).code).toBe(0);
    expect(sectionOf(page(out), 'parcels')).toContain('contract 1.0.0, owner parcel-desk');
    expect(figcaptionOf(page(out), 'parcels')).toBe("Rows per partition of parcels v1; the shaded band is the contract's min_rows 10 to max_rows 100.");
    const parcels = Object.fromEntries(cellsOf(page(out), 'parcels').map((c) => [c.partition, c.state]));
    // Its calendar starts at its first partition: nothing was owed before it.
    expect(parcels).toEqual({ 'dt=2026-11-29': 'published', 'dt=2026-11-30': 'waiting' });
    expect(sectionOf(page(out), 'shipments')).toContain('contract 1.2.0, owner logistics');
    expect(figcaptionOf(page(out), 'shipments')).toBe("Rows per partition of shipments v1; the shaded band is the contract's min_rows 50 to max_rows 400.");
  });
});
