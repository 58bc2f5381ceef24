import { GateError } from '../errors.js';

/** `--format` of `redrive` and `release`. */
export function outputFormat(value: string | undefined): 'text' | 'json' {
  if (value === 'text' || value === 'json' || value === undefined) return value ?? 'text';
  throw new GateError('bad_arguments', `--format must be text or json, not "${value}"`);
}
