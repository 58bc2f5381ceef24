import type { Contract } from '../contract/model.js';
import { isoSeconds } from '../contract/temporal.js';
import type { GateLayout } from '../gate/gate-layout.js';
import { count, html, htmlPage } from '../report/html.js';
import { readWhole, type ObjectStore } from '../storage/object-store.js';
import { readLakeStatus } from './read-lake-status.js';
import { pageQueue, sharedByKey } from './page-queue.js';
import { gateLinks } from './status-links.js';
import { statusPage } from './status-page.js';

/** A page under `/_gate/`: what the endpoint answers, made by the process that holds the gate. */
export interface PageResponse {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface GatePagesDeps {
  readonly store: ObjectStore;
  readonly layout: GateLayout;
  /** The registry's contracts as the gate enforces them now. */
  readonly contracts: () => Promise<readonly Contract[]>;
  readonly clock: () => number;
  /** How long one reading of the lake serves every request for the status page, and one listing every request for its prefix. @default 5_000 */
  readonly reuseMs?: number;
  /** Listings and objects asked for while one is being made wait, this many at most; past it they are refused (503). @default 16 */
  readonly waiting?: number;
}

const HTML = 'text/html; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';
/** A listing page shows this many objects; the S3 API lists the rest. */
const LISTED = 1000;
/** Objects shown as text up to this size; past it, or not text, the page says how to fetch them. */
const SHOWN_BYTES = 2 * 1024 * 1024;
const TEXT_NAMES = /(^|\/)(_SUCCESS|_READY)$|\.(json|jsonl|ndjson|csv|tsv|txt|ya?ml|html)$/i;
/** Listings of this many prefixes are kept for reuse (an object is not: it may be megabytes). */
const KEPT = 32;
const BUSY: PageResponse = { status: 503, contentType: TEXT, body: 'the gate is busy answering other page requests: try again in a moment\n' };

/**
 * `serve`'s pages under `/_gate/`: the status page, listings of a prefix, and objects. Read-only.
 * Objects are shown as text, never as the producer's HTML, except the gate's own report pages;
 * the endpoint sends every page with a policy that runs no script (s3-emulator-child.ts).
 * Concurrent requests for the status page share one reading of the lake, reused for `reuseMs`,
 * so a page left open in many tabs does not slow the gate down; listings and objects are made
 * one at a time (page-queue.ts), listings reused as long, so a flood of them does not starve drops.
 */
export function gatePages(deps: GatePagesDeps): (url: string) => Promise<PageResponse> {
  const reuseMs = deps.reuseMs ?? 5_000;
  const status = sharedFor(reuseMs, deps.clock, () => statusResponse(deps));
  const queue = pageQueue(deps.waiting ?? 16);
  const listing = sharedByKey(reuseMs, KEPT, deps.clock, (prefix) => queue.run(() => listingResponse(deps, prefix)));
  return async (url) => {
    const { pathname, searchParams } = new URL(url, 'http://gate.invalid');
    if (pathname === '/_gate' || pathname === '/_gate/') return status();
    if (pathname === '/_gate/ls') return listing(searchParams.get('prefix') ?? '') ?? BUSY;
    if (pathname === '/_gate/object') return queue.run(() => objectResponse(deps, searchParams.get('key') ?? '')) ?? BUSY;
    return notFound(html`No gate page at <code>${pathname}</code>.`);
  };
}

function sharedFor(reuseMs: number, clock: () => number, make: () => Promise<PageResponse>): () => Promise<PageResponse> {
  let last: { at: number; page: Promise<PageResponse> } | undefined;
  return () => {
    if (last && clock() - last.at < reuseMs) return last.page;
    const page = make();
    last = { at: clock(), page };
    page.catch(() => (last = undefined));
    return page;
  };
}

async function statusResponse(deps: GatePagesDeps): Promise<PageResponse> {
  const status = await readLakeStatus(deps.store, { now: deps.clock(), contracts: await deps.contracts(), layout: deps.layout });
  return { status: 200, contentType: HTML, body: statusPage(status, { links: gateLinks(), refreshSeconds: 30 }) };
}

async function listingResponse(deps: GatePagesDeps, prefix: string): Promise<PageResponse> {
  const objects = [];
  let more = false;
  for await (const object of deps.store.list(prefix)) {
    if (objects.length === LISTED) {
      more = true;
      break;
    }
    objects.push(object);
  }
  const links = gateLinks();
  const rows = objects.map((o) => html`<tr><td class="value"><a href="${links.href({ kind: 'object', key: o.key })}">${o.key.slice(prefix.length)}</a></td><td class="num">${count(o.size)}</td><td>${isoSeconds(o.lastModified.getTime())}</td></tr>`);
  const body = html`<main>
<h1>${deps.store.location}/${prefix}</h1>
<p class="meta"><a href="/_gate/">← lake status</a> · ${objects.length === 0 ? 'nothing is stored under this prefix' : `${count(objects.length)}${more ? '+' : ''} ${objects.length === 1 ? 'object' : 'objects'}`}</p>
${objects.length > 0 && html`<table class="listing"><thead><tr><th scope="col">Key</th><th scope="col" class="num" style="width:18%">Bytes</th><th scope="col" style="width:28%">Last modified</th></tr></thead><tbody>${rows}</tbody></table>`}
${more && html`<p>Only the first ${count(LISTED)} are shown; any S3 client lists the rest.</p>`}
</main>`;
  return { status: 200, contentType: HTML, body: htmlPage(`${deps.store.location}/${prefix}`, body) };
}

/** The gate's report pages as pages; other text as text; anything else as what it is and how to fetch it. */
async function objectResponse(deps: GatePagesDeps, key: string): Promise<PageResponse> {
  const info = await deps.store.head(key);
  if (!info) return notFound(html`Nothing is stored at <code>${deps.store.location}/${key}</code>.`);
  const gatePage = key.startsWith(deps.layout.quarantine) && key.endsWith(`/${deps.layout.reportPage}`);
  if (info.size <= SHOWN_BYTES && (gatePage || TEXT_NAMES.test(key))) {
    const text = new TextDecoder().decode((await readWhole(deps.store, key)) ?? new Uint8Array());
    return { status: 200, contentType: gatePage ? HTML : TEXT, body: text };
  }
  const body = html`<main>
<h1>${deps.store.location}/${key}</h1>
<dl class="facts"><dt>Bytes</dt><dd>${count(info.size)}</dd><dt>ETag</dt><dd><code>${info.etag}</code></dd><dt>Last modified</dt><dd>${isoSeconds(info.lastModified.getTime())}</dd></dl>
<p>Not shown here${info.size > SHOWN_BYTES ? ` (over ${count(SHOWN_BYTES)} bytes)` : ' (not text)'}: fetch it with any S3 client, e.g. <code>aws --endpoint-url &lt;this endpoint&gt; s3 cp ${deps.store.location}/${key} .</code></p>
</main>`;
  return { status: 200, contentType: HTML, body: htmlPage(key, body) };
}

function notFound(what: ReturnType<typeof html>): PageResponse {
  return { status: 404, contentType: HTML, body: htmlPage('Not found', html`<main><h1>Not found</h1><p>${what} The status page is <a href="/_gate/">/_gate/</a>.</p></main>`) };
}
