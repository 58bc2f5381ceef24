import { describeError } from '../errors.js';
import { parseJsonLine } from './json-line.js';
import { duplicateKeyReason, duplicateTopLevelKey } from './json-duplicate-keys.js';

/** JSON.parse messages can quote the input; a reason should not carry megabytes of it. */
const MAX_REASON_CHARS = 300;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type JsonObject = Record<string, unknown>;

/** Whitespace-only lines separate rows in many writers' output; they are not rows. */
export function isBlank(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = b[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The line's object as JSON.parse reads it (see json-line.ts), or why it is not one (a key given twice among them). */
export function parseObject(bytes: Uint8Array, lineNumber: number): JsonObject | string {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return `line ${lineNumber} is not valid UTF-8`;
  }
  let value: unknown;
  try {
    value = parseJsonLine(text);
  } catch (error) {
    return clip(`invalid JSON: ${describeError(error)}`);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const duplicate = duplicateTopLevelKey(text);
    return duplicate ? duplicateKeyReason(duplicate) : (value as JsonObject);
  }
  return `line ${lineNumber} is not a JSON object: found ${describeJson(value)}`;
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  return typeof value === 'number' ? 'a number' : 'a boolean';
}

function clip(reason: string): string {
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS)}…`;
}
