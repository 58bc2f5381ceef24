import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeError, GateError } from '../errors.js';
import type { Notice, Notifier } from './notifier.js';

export interface LocalNotifierOptions {
  /** A JSON-lines file; its directories are created on the first notice. */
  readonly file: string;
  /** Defaults to stderr, because stdout may carry a report a caller parses. */
  readonly print?: (line: string) => void;
  readonly now?: () => Date;
}

/**
 * The notifier for running without AWS: each notice becomes one JSON line in a file (a record a
 * test or a person can read back) and one readable line on the terminal. A notice whose id the
 * file already holds is not written again: a gate restarted after dying between sending and
 * recording it re-sends it, and this is where that retry becomes exactly once.
 */
export function localNotifier(options: LocalNotifierOptions): Notifier {
  const { file } = options;
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  // Appends run one after another, so concurrent notices never interleave within a line.
  let queue: Promise<void> = Promise.resolve();
  let sent: Promise<Set<string>> | undefined;
  return {
    notify(notice: Notice): Promise<void> {
      const { id, subject, body, attributes } = notice;
      const line = `${JSON.stringify({ at: now().toISOString(), ...(id ? { id } : {}), subject, body, attributes })}\n`;
      const appended = queue.then(async () => {
        const ids = await (sent ??= idsIn(file));
        if (id !== undefined && ids.has(id)) return false;
        await appendLine(file, line);
        if (id !== undefined) ids.add(id);
        return true;
      });
      queue = appended.then(() => undefined, () => undefined);
      return appended.then((written) => void (written && print(readableLine(notice))));
    },
  };
}

/** The ids of the notices a file already holds (another process may have written some). */
async function idsIn(file: string): Promise<Set<string>> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"id"')) continue;
    try {
      const { id } = JSON.parse(line) as { id?: unknown };
      if (typeof id === 'string') ids.add(id);
    } catch {
      // a torn last line of a process killed mid-append: not a notice
    }
  }
  return ids;
}

/** E.g. `[quarantined/critical] orders v1 dt=2026-11-30: <subject>`. */
export function readableLine({ subject, attributes }: Notice): string {
  const { outcome, severity, contract, version, partition } = attributes;
  const where = [contract, `v${version.replace(/^v/, '')}`, ...(partition ? [partition] : [])].join(' ');
  return `[${outcome}/${severity}] ${where}: ${subject.replace(/\s+/g, ' ').trim()}`;
}

async function appendLine(file: string, line: string): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    // One append call per line: O_APPEND keeps even other processes' lines whole.
    await appendFile(file, line, 'utf8');
  } catch (error) {
    throw new GateError('notify_failed', `cannot append the notice to ${file}: ${describeError(error)}`, {
      cause: error,
      context: { file },
    });
  }
}
