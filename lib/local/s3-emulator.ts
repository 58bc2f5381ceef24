import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describeError, GateError } from '../errors.js';
import { requireEmulatorPackage } from './emulator-package.js';
import { EMULATOR_HOST, type ChildMessage, type ObjectCreatedEvent, type PageResponse, type ParentMessage } from './emulator-protocol.js';

export type { ObjectCreatedEvent } from './emulator-protocol.js';

export interface S3Emulator {
  /** `http://127.0.0.1:PORT`; use with a path-style client (see createS3Client). */
  readonly endpoint: string;
  readonly port: number;
  stop(): Promise<void>;
}

export interface S3EmulatorOptions {
  /** Where objects live on disk; created if missing. */
  readonly dir: string;
  readonly buckets: readonly string[];
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly onObjectCreated?: (event: ObjectCreatedEvent) => void;
  /** Makes the pages under `/_gate/` (the URL as requested, query included); without it they are 404. */
  readonly onPage?: (url: string) => Promise<PageResponse>;
}

const STOP_GRACE_MS = 5_000;

/**
 * Starts a local S3-compatible endpoint (s3rver, plus S3's conditional writes) in a child
 * process and resolves once it listens.
 */
export async function startS3Emulator(options: S3EmulatorOptions): Promise<S3Emulator> {
  requireEmulatorPackage('starting a local S3 endpoint (serve, or reading a serve directory with none running)');
  const requestedPort = options.port ?? 0;
  const child = forkChild();
  child.on('message', (message: ChildMessage) => {
    if (message.type === 'object-created') options.onObjectCreated?.(message.event);
    else if (message.type === 'page-request') void answerPage(child, message, options.onPage);
  });
  const start: ParentMessage = { type: 'start', options: { dir: options.dir, buckets: options.buckets, port: requestedPort } };
  // A failed send means the child is already gone; its exit rejects the start below.
  child.send(start, (error) => error && child.kill());
  const port = await whenListening(child, requestedPort);
  let stopping: Promise<void> | undefined;
  return {
    endpoint: `http://${EMULATOR_HOST}:${port}`,
    port,
    stop: () => (stopping ??= stopChild(child)),
  };
}

/** Under tsx or vitest this module is TypeScript, and so is the child entry next to it; bundled (scripts/bundle-cli.ts), both are `.mjs`. */
function forkChild(): ChildProcess {
  const typescript = import.meta.url.endsWith('.ts');
  const extension = typescript ? 'ts' : import.meta.url.endsWith('.mjs') ? 'mjs' : 'js';
  const entry = new URL(`./s3-emulator-child.${extension}`, import.meta.url);
  const execArgv = ['--openssl-legacy-provider'];
  if (typescript) execArgv.push('--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href);
  return fork(entry, [], { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

function whenListening(child: ChildProcess, requestedPort: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const fail = (message: string, context: Record<string, unknown> = {}): void => {
      cleanup();
      if (child.connected) child.disconnect();
      reject(new GateError('storage_failed', message, { context: { port: requestedPort, ...context } }));
    };
    const onMessage = (message: ChildMessage): void => {
      if (message.type === 'ready') {
        cleanup();
        resolve(message.port);
      } else if (message.type === 'failed') {
        fail(startFailure(requestedPort, message.message, message.code), { code: message.code });
      }
    };
    const onExit = (code: number | null, signal: string | null): void =>
      fail(`S3 emulator exited (${signal ?? `code ${code}`}) before listening on ${EMULATOR_HOST}:${requestedPort}`);
    const onError = (error: Error): void => fail(`S3 emulator could not be started: ${error.message}`);
    const cleanup = (): void => {
      child.off('message', onMessage).off('exit', onExit).off('error', onError);
    };
    child.on('message', onMessage).on('exit', onExit).on('error', onError);
  });
}

const NO_PAGES: PageResponse = { status: 404, contentType: 'text/plain; charset=utf-8', body: 'no gate pages on this endpoint: `contract-gate serve` serves them\n' };

async function answerPage(child: ChildProcess, request: { id: number; url: string }, onPage: S3EmulatorOptions['onPage']): Promise<void> {
  const page = onPage === undefined ? NO_PAGES : await onPage(request.url).catch((error: unknown): PageResponse => (
    { status: 500, contentType: 'text/plain; charset=utf-8', body: `the page could not be made: ${describeError(error)}\n` }
  ));
  const response: ParentMessage = { type: 'page-response', id: request.id, ...page };
  if (child.connected) child.send(response, () => undefined);
}

function startFailure(port: number, message: string, code: string | undefined): string {
  if (code === 'EADDRINUSE') return `S3 emulator cannot listen on ${EMULATOR_HOST}:${port}: the port is already in use`;
  if (code === 'EACCES') return `S3 emulator cannot listen on ${EMULATOR_HOST}:${port}: permission denied`;
  return `S3 emulator failed to start on ${EMULATOR_HOST}:${port}: ${message}`;
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    // A child that cannot close its server in time is killed rather than left behind.
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    const stop: ParentMessage = { type: 'stop' };
    if (child.connected) child.send(stop, (error) => error && child.kill());
    else child.kill();
  });
}
