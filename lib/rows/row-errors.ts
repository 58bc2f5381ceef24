import { GateError, type GateErrorCode } from '../errors.js';

/**
 * lib/errors.ts does not list 'unsupported' yet (the integrator adds it); until then the code is
 * carried as this value, so callers can already match `error.code === 'unsupported'`.
 */
const UNSUPPORTED = 'unsupported' as GateErrorCode;

/**
 * A file whose rows cannot be carried over exactly (a type or layout the rewrite cannot write
 * back bit for bit): the batch must be quarantined whole rather than published with changed data.
 */
export function unsupportedFile(path: string, column: string | undefined, type: string, why: string): GateError {
  const where = column === undefined ? path : `column "${column}" of ${path}`;
  return new GateError(UNSUPPORTED, `cannot withhold rows of ${where} (${type}): ${why}`, { context: { path, ...(column === undefined ? {} : { column }), type } });
}
