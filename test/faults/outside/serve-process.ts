import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How serve is started: from the TypeScript source (the working tree) or the built dist/. */
export type ServeBuild = 'tsx' | 'dist';

export interface ServeOptions {
  readonly root: string;
  readonly dir: string;
  readonly contracts: string;
  readonly port: number;
  readonly build: ServeBuild;
}

/**
 * `contract-gate serve` as a real child process in a process group of its own, so SIGKILL takes
 * the gate and its S3 emulator child down together, as a crashed host would. Its stdout and
 * stderr go to <dir>/serve.log, never to ours. Restarts reuse the same --dir and --port.
 */
export class ServeProcess {
  private child: ChildProcess | undefined;
  private log: WriteStream | undefined;
  private up: Promise<void> = Promise.resolve();
  private killing = false;
  /** Bumped by every SIGKILL: a trial that saw it change lived through a crash. */
  kills = 0;
  /** When each SIGKILL was sent (epoch ms). */
  readonly killedAt: number[] = [];
  starts = 0;
  /** Exits nobody asked for (not our SIGKILL, not stop()): each one is restarted and reported. */
  crashes = 0;
  private stopping = false;

  constructor(readonly options: ServeOptions) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.options.port}`;
  }

  /** Resolves once the endpoint answers (after a kill: once the restarted gate answers). */
  ready(): Promise<void> {
    return this.up;
  }

  start(): Promise<void> {
    this.up = this.spawnAndWait();
    return this.up;
  }

  /** SIGKILL to the whole group, then the same command again. A kill while one is under way is skipped. */
  async killAndRestart(): Promise<boolean> {
    if (this.killing || !this.child?.pid) return false;
    this.killing = true;
    this.kills += 1;
    this.killedAt.push(Date.now());
    const child = this.child;
    const exited = new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
    this.up = exited.then(() => this.spawnAndWait());
    try {
      await this.up;
    } finally {
      this.killing = false;
    }
    return true;
  }

  /** SIGTERM (the gate stops cleanly), SIGKILL after a grace period. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.up.catch(() => undefined);
    const child = this.child;
    this.child = undefined;
    if (child?.pid && child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      const timer = setTimeout(() => signalGroup(child.pid!, 'SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
      signalGroup(child.pid, 'SIGKILL'); // the emulator child, if it outlived its parent
    }
    await new Promise<void>((done) => (this.log ? this.log.end(done) : done()));
    this.log = undefined;
  }

  private onUnexpectedExit(child: ChildProcess): void {
    if (this.stopping || this.killing || this.child !== child) return;
    this.crashes += 1;
    this.up = this.spawnAndWait();
    this.up.catch(() => undefined);
  }

  private command(): string[] {
    const { root, dir, contracts, port, build } = this.options;
    const args = ['serve', '--dir', dir, '--contracts', contracts, '--port', String(port), '--bucket', 'lake'];
    if (build === 'dist') return [join(root, 'dist/lib/cli/main.js'), ...args];
    return ['--import', 'tsx', join(root, 'lib/cli/main.ts'), ...args];
  }

  private async spawnAndWait(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      this.log ??= createWriteStream(join(this.options.dir, 'serve.log'), { flags: 'a' });
      const child = spawn(process.execPath, this.command(), {
        cwd: resolve(this.options.root),
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      });
      this.starts += 1;
      liveGroups.add(child.pid!);
      child.once('exit', () => liveGroups.delete(child.pid!));
      killGroupsOnExit();
      child.stdout!.pipe(this.log, { end: false });
      child.stderr!.pipe(this.log, { end: false });
      this.child = child;
      const outcome = await untilListening(child);
      if (outcome === 'up') {
        child.once('exit', () => this.onUnexpectedExit(child));
        return;
      }
      this.child = undefined;
      // The port of a killed gate may take a moment to be free again.
      if (attempt >= 30) throw new Error(`serve did not start on port ${this.options.port} (see ${join(this.options.dir, 'serve.log')})`);
      await sleep(300);
    }
  }
}

function untilListening(child: ChildProcess): Promise<'up' | 'exited'> {
  return new Promise((done) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen = (seen + chunk.toString('utf8')).slice(-4096);
      if (seen.includes('local gate on http://')) finish('up');
    };
    const onExit = () => finish('exited');
    const timer = setTimeout(() => {
      signalGroup(child.pid!, 'SIGKILL');
    }, 60_000);
    const finish = (outcome: 'up' | 'exited') => {
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      child.off('exit', onExit);
      done(outcome);
    };
    child.stdout!.on('data', onData);
    child.once('exit', onExit);
  });
}

/** Every serve group still alive: none may outlive the harness, however it ends. */
const liveGroups = new Set<number>();
let exitHook = false;

function killGroupsOnExit(): void {
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => liveGroups.forEach((pid) => signalGroup(pid, 'SIGKILL')));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      liveGroups.forEach((pid) => signalGroup(pid, 'SIGKILL'));
      process.exit(130);
    });
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is gone
  }
}

/** A port nobody listens on right now (the kernel's pick, released again). */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}
