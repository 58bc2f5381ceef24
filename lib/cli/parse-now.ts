import { parseTemporal } from '../contract/temporal.js';
import { GateError } from '../errors.js';

/** `--now` pins the check time (for reproducible runs and tests); the wall clock otherwise. */
export function parseNow(text: string | undefined, clock: () => number = Date.now): number {
  if (text === undefined) return clock();
  const millis = parseTemporal(text, 'timestamp');
  if (millis === undefined || !/(Z|[+-]\d{2}:?\d{2})$/.test(text)) {
    throw new GateError('bad_arguments', `--now must be an ISO-8601 timestamp with an offset, e.g. 2026-11-30T06:00:00Z; found "${text}"`);
  }
  return millis;
}
