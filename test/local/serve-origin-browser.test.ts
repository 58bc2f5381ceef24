/// <reference lib="dom" />
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalGate, type LocalGate } from '../../lib/local/local-gate.js';
import { CHROMIUM, CHROMIUM_SKIP, launchChromium } from '../status/chromium.js';

// The reviewer's attacks on `serve` from a real browser (issue 28, point 5): a page on another
// site posts a form and a no-cors multipart body at the local endpoint, and a name that a
// rebinding DNS points at 127.0.0.1 asks for the listing. Names are mapped in Chromium itself.

const NOW = Date.parse('2026-11-30T05:00:00Z');
const READY = 'staging/orders/v1/dt=2026-11-29/_READY';
let dir: string;
let gate: LocalGate;
let port: number;
let attacker: Server;
let browser: Browser | undefined;

/** The attacker's page: a no-cors fetch on load, and a form it submits when told. */
function attackPage(target: string): string {
  return `<!doctype html><title>cute cats</title>
<form id="drop" method="post" enctype="multipart/form-data" action="${target}/lake">
<input name="key" value="${READY}"><textarea name="file">x</textarea></form>
<script>
const body = new FormData();
body.append('key', 'staging/orders/v1/dt=2026-11-29/part-0000.parquet');
body.append('file', new Blob(['rows']), 'part-0000.parquet');
fetch('${target}/lake', { method: 'POST', mode: 'no-cors', body }).then(() => { document.title = 'sent'; }, () => { document.title = 'failed'; });
</script>`;
}

async function stagedKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of gate.store.list('staging/')) keys.push(object.key);
  return keys;
}

beforeAll(async () => {
  if (!CHROMIUM) return;
  dir = mkdtempSync(join(tmpdir(), 'cg-origin-browser-'));
  gate = await startLocalGate({ dir, contractsDir: 'contracts', bucket: 'lake', port: 0, clock: () => NOW, print: () => {}, probeEveryMs: 0, resumeEveryMs: 0 });
  port = Number(new URL(gate.endpoint).port);
  attacker = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(attackPage(gate.endpoint)));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  browser = await launchChromium(['--host-resolver-rules=MAP cats.example 127.0.0.1, MAP rebound.example 127.0.0.1']);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  attacker?.close();
  await gate?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!CHROMIUM)(`serve against a web page in Chromium${CHROMIUM_SKIP}`, () => {
  it('writes nothing for a no-cors multipart POST or a form post from another site', async () => {
    const page = await browser!.newPage();
    await page.goto(`http://cats.example:${(attacker.address() as AddressInfo).port}/`);
    await page.waitForFunction(() => document.title !== 'cute cats');
    expect(await stagedKeys()).toEqual([]);
    const posted = page.waitForResponse((response) => response.url() === `${gate.endpoint}/lake` && response.request().resourceType() === 'document');
    await page.evaluate(() => (document.getElementById('drop') as HTMLFormElement).submit());
    const answer = await posted;
    expect(answer.status()).toBe(403);
    expect(await answer.text()).toContain('a browser form post from another origin (Origin: http://cats.example:');
    await page.close();
    expect(await stagedKeys()).toEqual([]);
    await gate.settled();
    expect(gate.outcomes).toEqual([]);
  });

  it('gives a rebound name no listing, and the endpoint\'s own name its pages', async () => {
    await gate.store.put('published/orders/v1/dt=2026-11-01/part-0000.parquet', 'rows');
    const page = await browser!.newPage();
    const rebound = await page.goto(`http://rebound.example:${port}/_gate/ls?prefix=`);
    expect(rebound?.status()).toBe(421);
    expect(await page.content()).not.toContain('dt=2026-11-01');
    const own = await page.goto(`${gate.endpoint}/_gate/ls?prefix=`);
    expect(own?.status()).toBe(200);
    expect(await page.content()).toContain('dt=2026-11-01');
    expect((await page.goto(`${gate.endpoint}/_gate/`))?.status()).toBe(200);
    await page.close();
  });
});
