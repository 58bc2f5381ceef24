/**
 * Child-process entry of the S3 emulator. It runs apart from the caller because s3rver's
 * ListObjectsV2 continuation tokens use DES, which Node only offers with
 * `--openssl-legacy-provider`, a flag we do not want to impose on the whole CLI.
 */
import { mkdir } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { errorCode } from '../storage/fs-errors.js';
import { writeObjectsAtomically } from './atomic-object-files.js';
import { copySourceMiddleware } from './copy-source-middleware.js';
import { conditionalWriteMiddleware } from './conditional-write-middleware.js';
import { EMULATOR_HOST, isGatePage, type ChildMessage, type EmulatorStartOptions, type PageResponse, type ParentMessage } from './emulator-protocol.js';
import { keyPathMiddleware } from './key-path-middleware.js';
import { completeUploadsAsS3 } from './multipart-completion.js';
import { multipartMiddleware } from './multipart-middleware.js';
import { ObjectCreatedRelay } from './object-created-relay.js';
import { readRangesAsS3 } from './ranged-reads.js';
import { refusal, respondRefused, withoutCorsHeaders } from './request-guard.js';
import { listInS3Order } from './s3-order-listing.js';
import { acceptAnyAccessKey, createS3rver } from './s3rver-types.js';
import { storeKeysLiterally } from './store-paths.js';
import { xmlBodyMiddleware } from './xml-body-middleware.js';

let server: Server | undefined;
const pending = new Map<number, (page: PageResponse) => void>();
let nextPage = 0;

function send(message: ChildMessage): void {
  // A send that fails means the parent is gone; the disconnect handler ends this process.
  if (process.connected) process.send?.(message, undefined, undefined, () => undefined);
}

async function start(options: EmulatorStartOptions): Promise<void> {
  await mkdir(options.dir, { recursive: true });
  acceptAnyAccessKey();
  const app = createS3rver({
    address: EMULATOR_HOST,
    port: options.port,
    directory: options.dir,
    silent: true,
    allowMismatchedSignatures: true,
    vhostBuckets: false,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  // Before any bucket is made: even configured bucket names go through the safe paths.
  storeKeysLiterally(app.store);
  await app.configureBuckets();
  listInS3Order(app.store);
  writeObjectsAtomically(app.store);
  completeUploadsAsS3(app.store);
  readRangesAsS3(app.store);
  const relay = new ObjectCreatedRelay(app.store, (event) => send({ type: 'object-created', event }));
  relay.listen(app);
  // Ahead of s3rver's own chain, so its routes see normalised requests and run under the key lock.
  app.middleware.unshift(
    keyPathMiddleware,
    copySourceMiddleware,
    conditionalWriteMiddleware({ store: app.store, aroundWrite: relay.track }),
    multipartMiddleware(app.store),
  );
  // Last before s3rver's router (the final middleware), so it renders documents first.
  app.middleware.splice(app.middleware.length - 1, 0, xmlBodyMiddleware());
  const s3 = app.callback();
  server = createServer((request, response) => {
    // No other site may embed or read what this endpoint answers, refusals included.
    response.setHeader('cross-origin-resource-policy', 'same-origin');
    // No address once the server is closing: then no Host is this endpoint's, and nothing is answered.
    const refused = refusal(request, (server?.address() as AddressInfo | null)?.port ?? 0);
    if (refused !== undefined) return respondRefused(response, refused);
    if (isGatePage(request.url ?? '')) return void servePage(request, response);
    // A staged object is the producer's: a browser opening one (an HTML file, say) runs none of its script.
    response.setHeader('content-security-policy', 'sandbox');
    response.setHeader('x-content-type-options', 'nosniff');
    withoutCorsHeaders(response);
    return s3(request, response);
  });
  return listen(server, options.port);
}

/** The gate's pages need inline styles and nothing else: no script, even if a value escaped escaping. */
const PAGE_HEADERS = { 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:", 'x-content-type-options': 'nosniff' };

/** `/_gate/...`: asked of the parent, which reads the lake through the endpoint like any client. */
async function servePage(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const page = request.method === 'GET' || request.method === 'HEAD'
    ? await new Promise<PageResponse>((resolve) => {
      const id = nextPage++;
      pending.set(id, resolve);
      send({ type: 'page-request', id, url: request.url ?? '' });
    })
    : { status: 405, contentType: 'text/plain; charset=utf-8', body: 'the gate pages are read-only: GET them\n' };
  response.writeHead(page.status, { 'content-type': page.contentType, 'cache-control': 'no-store', ...PAGE_HEADERS, ...(page.status === 405 ? { allow: 'GET, HEAD' } : {}) });
  response.end(request.method === 'HEAD' ? undefined : page.body);
}

/** s3rver's own `run()` leaves a listen error unhandled, so we listen ourselves. */
function listen(target: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    target.once('error', reject);
    target.listen(port, EMULATOR_HOST, () => {
      target.off('error', reject);
      send({ type: 'ready', port: (target.address() as AddressInfo).port });
      resolve();
    });
  });
}

function stop(): void {
  if (server === undefined) process.exit(0);
  server.close(() => process.exit(0));
  // Clients keep sockets alive; without this, close() would wait for them to time out.
  server.closeAllConnections();
}

function failed(error: unknown): void {
  // The parent disconnects on this message, which ends this process.
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error), code: errorCode(error) });
}

// The parent is gone (exited, crashed or stopped us): nobody can reach this endpoint any more.
process.on('disconnect', () => process.exit(0));
process.on('message', (message: ParentMessage) => {
  if (message.type === 'start') start(message.options).catch(failed);
  else if (message.type === 'stop') stop();
  else if (message.type === 'page-response') {
    const { id, type: _type, ...page } = message;
    pending.get(id)?.(page);
    pending.delete(id);
  }
});
