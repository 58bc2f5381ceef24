import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2019, type ValidateFunction } from 'ajv/dist/2019.js';

/** The official ODCS material lives beside the project in ../shared (present in CI). */
export const ODCS_DIR = join('..', 'shared', 'odcs');
export const ODCS_PRESENT = existsSync(join(ODCS_DIR, 'odcs-json-schema-v3.1.0.json'));

/**
 * The official v3.1.0 JSON Schema, compiled with ajv's draft 2019-09 class (its `$schema`).
 * ajv-formats is not installed: the three formats the schema uses are registered as plain
 * checks, strict enough to catch a date that is not a date.
 */
export function odcsValidator(): ValidateFunction {
  const ajv = new Ajv2019({ allErrors: true });
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:[^\s]*$/i);
  ajv.addFormat('date', /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/);
  ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i);
  return ajv.compile(JSON.parse(readFileSync(join(ODCS_DIR, 'odcs-json-schema-v3.1.0.json'), 'utf8')) as object);
}
