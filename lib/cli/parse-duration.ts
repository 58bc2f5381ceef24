import { GateError } from '../errors.js';

const UNIT_MS: Readonly<Record<string, number>> = { '': 1_000, s: 1_000, m: 60_000, h: 3_600_000 };

/**
 * A duration option such as `--timeout`: `90s`, `15m`, `1h`, or plain seconds (`900`), as a
 * scheduler's own timeout settings are usually written. Returns milliseconds.
 */
export function parseDuration(option: string, text: string): number {
  const match = /^(\d+(?:\.\d+)?)\s*([smh]?)$/i.exec(text.trim());
  const ms = match ? Number(match[1]) * UNIT_MS[match[2]!.toLowerCase()]! : Number.NaN;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new GateError('bad_arguments', `${option} must be a positive duration such as 90s, 15m, 1h or a number of seconds; found "${text}"`);
  }
  return ms;
}

/** `15m`, `90s`, `1h`: how a duration option's value is shown back. */
export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0) return `${ms / 60_000}m`;
  return `${Math.round(ms / 100) / 10}s`;
}
