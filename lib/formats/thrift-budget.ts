import { MAX_FOOTER_NESTING, MAX_FOOTER_VALUES } from './parquet-limits.js';
import { readVarInt } from './rle-runs.js';
import { UnreadableError } from './table-file.js';

/**
 * Counts the values in a Thrift Compact struct without building anything, so a footer is refused
 * before hyparquet turns it into objects: a forged list of empty strings costs it ~200 bytes of
 * heap a byte. Follows hyparquet's grammar (and its 32-bit varints) so it counts what hyparquet
 * would build; on malformed input it stops and leaves the error to hyparquet's parse.
 */
const TRUE = 1, FALSE = 2, BYTE = 3, I16 = 4, I32 = 5, I64 = 6, DOUBLE = 7, BINARY = 8, LIST = 9, STRUCT = 12;

interface Walk {
  readonly bytes: Uint8Array;
  at: number;
  values: number;
}

export function checkFooterSize(bytes: Uint8Array): void {
  walkStruct({ bytes, at: 0, values: 0 }, 1);
}

/** False when the bytes stop making sense. */
function walkStruct(walk: Walk, depth: number): boolean {
  if (depth > MAX_FOOTER_NESTING) throw new UnreadableError(`the footer nests more than ${MAX_FOOTER_NESTING} levels deep`);
  while (walk.at < walk.bytes.length) {
    const byte = walk.bytes[walk.at++]!;
    if ((byte & 0x0f) === 0) return true;
    if (!(byte >> 4) && readVarInt(walk.bytes, walk) === undefined) return false;
    if (!walkValue(walk, byte & 0x0f, depth)) return false;
  }
  return false;
}

function walkValue(walk: Walk, type: number, depth: number): boolean {
  if (++walk.values > MAX_FOOTER_VALUES) throw new UnreadableError(`the footer holds more than ${MAX_FOOTER_VALUES.toLocaleString('en-US')} values, the limit for parsing one`);
  switch (type) {
    case TRUE: case FALSE: return true;
    case BYTE: walk.at += 1; break;
    case I16: case I32: case I64: if (readVarInt(walk.bytes, walk) === undefined) return false; break;
    case DOUBLE: walk.at += 8; break;
    case BINARY: { const length = readVarInt(walk.bytes, walk); if (length === undefined || length < 0) return false; walk.at += length; break; }
    case LIST: return walkList(walk, depth);
    case STRUCT: return walkStruct(walk, depth + 1);
    default: return false;
  }
  return walk.at <= walk.bytes.length;
}

function walkList(walk: Walk, depth: number): boolean {
  const header = walk.bytes[walk.at++];
  if (header === undefined) return false;
  const size = header >> 4 === 15 ? readVarInt(walk.bytes, walk) : header >> 4;
  if (size === undefined || size < 0) return false;
  // Booleans in a list are a byte each, as hyparquet reads them.
  const element = (header & 0x0f) === TRUE || (header & 0x0f) === FALSE ? BYTE : header & 0x0f;
  for (let i = 0; i < size; i++) if (!walkValue(walk, element, depth + 1)) return false;
  return true;
}
