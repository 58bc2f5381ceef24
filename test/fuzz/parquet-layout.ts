import { T, child, decodeStruct, encodeStruct, int, items, setInt, type TStruct } from './thrift-compact.js';

/**
 * Where things are in a valid Parquet file, for mutations that aim: the footer as an editable
 * Thrift tree, every column chunk and every page header. Field ids are the ones of parquet.thrift.
 */
export interface ParquetLayout {
  readonly body: Uint8Array;
  readonly footer: TStruct;
  readonly pages: readonly PageSpot[];
}

export interface PageSpot {
  readonly chunk: TStruct;
  readonly headerStart: number;
  readonly headerEnd: number;
  readonly dataEnd: number;
  readonly header: TStruct;
  readonly codec: number;
}

/** ColumnMetaData fields holding a file offset, and ColumnChunk / RowGroup ones. */
const META_OFFSETS = [9, 10, 11, 14];
const CHUNK_OFFSETS = [2, 4, 6];
const GROUP_OFFSETS = [5];

export function parseLayout(file: Uint8Array): ParquetLayout {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const length = view.getUint32(file.length - 8, true);
  const start = file.length - 8 - length;
  const footer = decodeStruct(file.subarray(start, file.length - 8)).struct;
  const body = file.slice(0, start);
  return { body, footer, pages: findPages(body, footer) };
}

/** Writes a file back: body, footer, footer length, magic. */
export function joinFile(body: Uint8Array, footer: TStruct, footerLength?: number): Uint8Array {
  const encoded = encodeStruct(footer);
  const out = new Uint8Array(body.length + encoded.length + 8);
  out.set(body);
  out.set(encoded, body.length);
  new DataView(out.buffer).setUint32(body.length + encoded.length, footerLength ?? encoded.length, true);
  out.set([0x50, 0x41, 0x52, 0x31], out.length - 4);
  return out;
}

export function rowGroups(footer: TStruct): TStruct[] {
  return items(footer, 4) as TStruct[];
}

/** Every ColumnChunk struct in the footer, row group by row group. */
export function columnChunks(footer: TStruct): TStruct[] {
  return rowGroups(footer).flatMap((group) => items(group, 1) as TStruct[]);
}

function findPages(body: Uint8Array, footer: TStruct): PageSpot[] {
  const pages: PageSpot[] = [];
  for (const chunk of columnChunks(footer)) {
    const meta = child(chunk, 3);
    const start = int(meta, 11) || int(meta, 9);
    const size = int(meta, 7);
    if (start === undefined || size === undefined) continue;
    let pos = start;
    while (pos < start + size && pos < body.length) {
      const { struct: header, end } = decodeStruct(body, pos);
      const dataEnd = end + (int(header, 3) ?? 0);
      pages.push({ chunk, headerStart: pos, headerEnd: end, dataEnd, header, codec: int(meta, 4) ?? 0 });
      pos = dataEnd;
    }
  }
  return pages;
}

/**
 * Replaces body bytes [start, end) and keeps the file consistent around the change: offsets
 * after it move and the chunk holding it grows, so only the forged bytes are wrong.
 */
export function spliceBody(layout: ParquetLayout, start: number, end: number, replacement: Uint8Array, owner?: TStruct): Uint8Array {
  const delta = replacement.length - (end - start);
  const body = new Uint8Array(layout.body.length + delta);
  body.set(layout.body.subarray(0, start));
  body.set(replacement, start);
  body.set(layout.body.subarray(end), start + replacement.length);
  const shift = (struct: TStruct | undefined, ids: number[]) => {
    for (const id of ids) {
      const at = int(struct, id);
      if (struct && at !== undefined && at >= end) setInt(struct, id, at + delta);
    }
  };
  for (const group of rowGroups(layout.footer)) {
    shift(group, GROUP_OFFSETS);
    for (const chunk of items(group, 1) as TStruct[]) {
      shift(chunk, CHUNK_OFFSETS);
      shift(child(chunk, 3), META_OFFSETS);
    }
  }
  const ownerMeta = child(owner, 3);
  if (ownerMeta) setInt(ownerMeta, 7, (int(ownerMeta, 7) ?? 0) + delta, T.I64);
  return joinFile(body, layout.footer);
}
