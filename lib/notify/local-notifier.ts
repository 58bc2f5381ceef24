import { appendFile, mkdir } from 'node:fs/promises';
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
 * test or a person can read back) and one readable line on the terminal.
 */
export function localNotifier(options: LocalNotifierOptions): Notifier {
  const { file } = options;
  const print = options.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? (() => new Date());
  // Appends run one after another, so concurrent notices never interleave within a line.
  let queue: Promise<void> = Promise.resolve();
  return {
    notify(notice: Notice): Promise<void> {
      const { subject, body, attributes } = notice;
      const line = `${JSON.stringify({ at: now().toISOString(), subject, body, attributes })}\n`;
      const appended = queue.then(() => appendLine(file, line));
      queue = appended.catch(() => undefined);
      return appended.then(() => print(readableLine(notice)));
    },
  };
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
