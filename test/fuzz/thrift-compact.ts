/**
 * A generic Thrift Compact Protocol codec that keeps every field's wire type, so the fuzzer can
 * decode a Parquet footer or page header, forge one field and write the rest back unchanged.
 */
export const T = { TRUE: 1, FALSE: 2, BYTE: 3, I16: 4, I32: 5, I64: 6, DOUBLE: 7, BINARY: 8, LIST: 9, STRUCT: 12 } as const;

export type TStruct = Map<number, TField>;
export interface TList {
  readonly elem: number;
  items: TValue[];
}
export type TValue = boolean | number | bigint | Uint8Array | TList | TStruct;
export interface TField {
  type: number;
  value: TValue;
}

interface Cursor {
  readonly bytes: Uint8Array;
  pos: number;
}

export function decodeStruct(bytes: Uint8Array, pos = 0): { struct: TStruct; end: number } {
  const cursor = { bytes, pos };
  return { struct: readStruct(cursor), end: cursor.pos };
}

function readStruct(c: Cursor): TStruct {
  const struct: TStruct = new Map();
  let id = 0;
  for (;;) {
    const byte = readByte(c);
    const type = byte & 0x0f;
    if (type === 0) return struct;
    id = byte >> 4 ? id + (byte >> 4) : unzigzag(readVarint(c));
    const value = type === T.TRUE || type === T.FALSE ? type === T.TRUE : readValue(c, type);
    struct.set(id, { type, value });
  }
}

function readValue(c: Cursor, type: number): TValue {
  switch (type) {
    case T.BYTE: return readByte(c);
    case T.I16: case T.I32: return unzigzag(readVarint(c));
    case T.I64: return unzigzagBig(readVarintBig(c));
    case T.DOUBLE: return new DataView(c.bytes.buffer, c.bytes.byteOffset + take(c, 8), 8).getFloat64(0, true);
    case T.BINARY: { const length = readVarint(c); return c.bytes.slice(take(c, length), c.pos); }
    case T.LIST: return readList(c);
    case T.STRUCT: return readStruct(c);
    default: throw new Error(`thrift type ${type} not handled`);
  }
}

function readList(c: Cursor): TList {
  const header = readByte(c);
  const elem = header & 0x0f;
  const size = header >> 4 === 15 ? readVarint(c) : header >> 4;
  // Booleans inside a list are one byte each; they are kept as those bytes.
  const items = Array.from({ length: size }, () => readValue(c, elem === T.TRUE || elem === T.FALSE ? T.BYTE : elem));
  return { elem, items };
}

function take(c: Cursor, length: number): number {
  if (length < 0 || c.pos + length > c.bytes.length) throw new Error('thrift value past the end');
  const start = c.pos;
  c.pos += length;
  return start;
}

function readByte(c: Cursor): number {
  if (c.pos >= c.bytes.length) throw new Error('thrift struct past the end');
  return c.bytes[c.pos++]!;
}

function readVarint(c: Cursor): number {
  return Number(readVarintBig(c));
}

function readVarintBig(c: Cursor): bigint {
  let result = 0n;
  for (let shift = 0n; shift < 70n; shift += 7n) {
    const byte = readByte(c);
    result |= BigInt(byte & 0x7f) << shift;
    if (!(byte & 0x80)) return result;
  }
  throw new Error('thrift varint too long');
}

const unzigzag = (n: number) => Number(unzigzagBig(BigInt(n)));
const unzigzagBig = (n: bigint) => (n >> 1n) ^ -(n & 1n);

export function encodeStruct(struct: TStruct): Uint8Array {
  const out = new Writer();
  writeStruct(out, struct);
  return out.bytes.subarray(0, out.length);
}

/** A growable byte buffer: footers of forged 200,000-element schemas are encoded often. */
class Writer {
  bytes = new Uint8Array(1024);
  length = 0;

  push(byte: number): void {
    if (this.length === this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    this.bytes[this.length++] = byte;
  }

  /** Zigzag over 64 bits: forged values may be any i64, and i32 fields simply wrap when read. */
  zigzag(n: number | bigint): void {
    if (typeof n === 'number' && Number.isInteger(n) && Math.abs(n) < 2 ** 30) this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
    else this.varint(BigInt.asUintN(64, (BigInt(n) << 1n) ^ (BigInt(n) >> 63n)));
  }

  varint(n: number | bigint): void {
    if (typeof n === 'number') {
      for (; n >= 0x80; n = Math.floor(n / 128)) this.push((n % 128) | 0x80);
      this.push(n);
      return;
    }
    let rest = BigInt.asUintN(64, n);
    for (; rest >= 0x80n; rest >>= 7n) this.push(Number(rest & 0x7fn) | 0x80);
    this.push(Number(rest));
  }
}

function writeStruct(out: Writer, struct: TStruct): void {
  let last = 0;
  const ids = [...struct.keys()];
  if (ids.some((id, i) => i > 0 && id < ids[i - 1]!)) ids.sort((a, b) => a - b);
  for (const id of ids) {
    const field = struct.get(id)!;
    const type = field.type === T.TRUE || field.type === T.FALSE ? (field.value ? T.TRUE : T.FALSE) : field.type;
    if (id > last && id - last <= 15) out.push(((id - last) << 4) | type);
    else {
      out.push(type);
      out.zigzag(id);
    }
    last = id;
    if (type !== T.TRUE && type !== T.FALSE) writeValue(out, type, field.value);
  }
  out.push(0);
}

function writeValue(out: Writer, type: number, value: TValue): void {
  switch (type) {
    case T.BYTE: out.push(Number(value) & 0xff); return;
    case T.I16: case T.I32: case T.I64: out.zigzag(value as number | bigint); return;
    case T.DOUBLE: new Uint8Array(new Float64Array([Number(value)]).buffer).forEach((byte) => out.push(byte)); return;
    case T.BINARY: { const bytes = value as Uint8Array; out.varint(bytes.length); bytes.forEach((byte) => out.push(byte)); return; }
    case T.LIST: writeList(out, value as TList); return;
    case T.STRUCT: writeStruct(out, value as TStruct); return;
  }
}

function writeList(out: Writer, list: TList): void {
  const size = list.items.length;
  if (size < 15) out.push((size << 4) | list.elem);
  else {
    out.push(0xf0 | list.elem);
    out.varint(size);
  }
  const elem = list.elem === T.TRUE || list.elem === T.FALSE ? T.BYTE : list.elem;
  for (const item of list.items) writeValue(out, elem, item);
}

/** A struct field's nested struct, or undefined. */
export function child(struct: TStruct | undefined, id: number): TStruct | undefined {
  const value = struct?.get(id)?.value;
  return value instanceof Map ? value : undefined;
}

/** A struct field's list items, or an empty list. */
export function items(struct: TStruct | undefined, id: number): TValue[] {
  const value = struct?.get(id)?.value;
  return value !== undefined && typeof value === 'object' && 'items' in value ? value.items : [];
}

export function int(struct: TStruct | undefined, id: number): number | undefined {
  const value = struct?.get(id)?.value;
  return typeof value === 'number' || typeof value === 'bigint' ? Number(value) : undefined;
}

/** Sets an integer field, keeping its wire type (i64 fields need a bigint). */
export function setInt(struct: TStruct, id: number, value: number | bigint, type: number = struct.get(id)?.type ?? T.I32): void {
  struct.set(id, { type, value: type === T.I64 ? BigInt(value) : Number(value) });
}
