import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** RFC 3339 `full-date`, with a real calendar day: ajv ships no formats (ajv-formats is not a dependency). */
function isDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(text);
}

function isDateTime(text: string): boolean {
  const match = DATE_TIME.exec(text);
  return match !== null && isDate(match[1] ?? '') && !Number.isNaN(Date.parse(text));
}

/**
 * Compiles an exported schema the way a strict consumer would: every keyword must be known, so
 * `x-contract-gate` is declared, and the exported text is parsed as any reader would parse it.
 */
export function compileRowSchema(text: string): ValidateFunction {
  const ajv = new Ajv2020({ strict: true, allErrors: true, formats: { date: isDate, 'date-time': isDateTime } });
  ajv.addKeyword('x-contract-gate');
  return ajv.compile(JSON.parse(text) as object);
}

/** The keywords whose failure rejected a row, e.g. `/amount pattern`. */
export function failures(validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.keyword}`);
}
