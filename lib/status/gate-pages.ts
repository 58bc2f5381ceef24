import type { Contract } from '../contract/model.js';
import { isoSeconds } from '../contract/temporal.js';
import type { GateLayout } from '../gate/gate-layout.js';
import type { PageResponse } from '../local/emulator-protocol.js';
import { count, html, htmlPage } from '../report/html.js';
import type { ObjectStore } from '../storage/object-store.js';
import { readLakeStatus } from './read-lake-status.js';
import { endpointLinks } from './status-links.js';
import { statusPage } from './status-page.js';

export interface GatePagesDeps {
  readonly store: ObjectStore;
  readonly layout: GateLayout;
  readonly bucket: string;
  /** The registry's contracts as the gate enforces them now. */
  readonly contracts: () => Promise<readonly Contract[]>;
  readonly clock: () => number;
}

const HTML = 'text/html; charset=utf-8';
/** A listing page shows this many objects; the S3 API lists the rest. */
const LISTED = 1000;

/**
 * `serve`'s pages under `/_gate/`: the status page, and listings of a prefix for its links to
 * staging. Read-only, and made from the lake on every request: there is no page state to go stale.
 */
export function gatePages(deps: GatePagesDeps): (url: string) => Promise<PageResponse> {
  return async (url) => {
    const { pathname, searchParams } = new URL(url, 'http://gate.invalid');
    if (pathname === '/_gate' || pathname === '/_gate/') return statusResponse(deps);
    if (pathname === '/_gate/ls') return listingResponse(deps, searchParams.get('prefix') ?? '');
    return { status: 404, contentType: HTML, body: htmlPage('Not found', html`<main><h1>Not found</h1><p>No gate page at <code>${pathname}</code>. The status page is <a href="/_gate/">/_gate/</a>.</p></main>`) };
  };
}

async function statusResponse(deps: GatePagesDeps): Promise<PageResponse> {
  const status = await readLakeStatus(deps.store, { now: deps.clock(), contracts: await deps.contracts(), layout: deps.layout });
  return { status: 200, contentType: HTML, body: statusPage(status, { links: endpointLinks(deps.bucket), refreshSeconds: 30 }) };
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
  const links = endpointLinks(deps.bucket);
  const rows = objects.map((o) => html`<tr><td class="value"><a href="${links.href({ kind: 'object', key: o.key })}">${o.key.slice(prefix.length)}</a></td><td class="num">${count(o.size)}</td><td>${isoSeconds(o.lastModified.getTime())}</td></tr>`);
  const body = html`<main>
<h1>${deps.store.location}/${prefix}</h1>
<p class="meta"><a href="/_gate/">← lake status</a> · ${objects.length === 0 ? 'nothing is stored under this prefix' : `${count(objects.length)}${more ? '+' : ''} ${objects.length === 1 ? 'object' : 'objects'}`}</p>
${objects.length > 0 && html`<table class="listing"><thead><tr><th scope="col">Key</th><th scope="col" class="num" style="width:18%">Bytes</th><th scope="col" style="width:28%">Last modified</th></tr></thead><tbody>${rows}</tbody></table>`}
${more && html`<p>Only the first ${count(LISTED)} are shown; any S3 client lists the rest.</p>`}
</main>`;
  return { status: 200, contentType: HTML, body: htmlPage(`${deps.store.location}/${prefix}`, body) };
}
