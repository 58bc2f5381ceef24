import type { Mutated } from './byte-mutations.js';
import { joinFile, parseLayout, type PageSpot } from './parquet-layout.js';
import type { Prng } from './prng.js';
import { T, child, encodeStruct, int, setInt, type TStruct } from './thrift-compact.js';

/**
 * Offset indexes (each column chunk's page locations) appended to the file and pointed to by
 * their chunks, all true but one location: forged to a page of another column, any byte, a
 * forged size or first row, or one more location at a copy of a page with a forged run, placed
 * outside every chunk. A reader that follows an index to re-read a few rows decodes whatever it
 * points at, past every guard of the page walk: these files keep the reader from doing so.
 */
export function forgedPageIndex(file: Uint8Array, rng: Prng): Mutated | undefined {
  const layout = parseLayout(file);
  const dataPages = layout.pages.filter((p) => child(p.header, 5) || child(p.header, 8));
  if (dataPages.length === 0) return undefined;
  const chunks = [...new Set(dataPages.map((p) => p.chunk))];
  const indexes = chunks.map((chunk) => pageLocations(dataPages.filter((p) => p.chunk === chunk)));
  const target = rng.int(chunks.length);
  const at = rng.int(indexes[target]!.length);
  const { detail, extra = new Uint8Array(0) } = forgeLocation(indexes[target]!, at, rng, dataPages, layout.body);
  const encoded = indexes.map((locations) => encodeStruct(new Map([[1, { type: T.LIST, value: { elem: T.STRUCT, items: locations } }]])));
  const body = new Uint8Array(layout.body.length + extra.length + encoded.reduce((n, e) => n + e.length, 0));
  body.set(layout.body);
  body.set(extra, layout.body.length);
  let end = layout.body.length + extra.length;
  encoded.forEach((index, i) => {
    body.set(index, end);
    setInt(chunks[i]!, 4, end, T.I64);
    setInt(chunks[i]!, 5, index.length, T.I32);
    end += index.length;
  });
  return { bytes: joinFile(body, layout.footer), detail: `offset indexes of ${chunks.length} chunks, chunk ${target} location ${at} of ${indexes[target]!.length} ${detail}` };
}

/** PageLocation structs (offset, compressed_page_size, first_row_index) of a chunk's data pages. */
function pageLocations(pages: readonly PageSpot[]): TStruct[] {
  let firstRow = 0;
  return pages.map((page) => {
    const location: TStruct = new Map();
    setInt(location, 1, page.headerStart, T.I64);
    setInt(location, 2, page.dataEnd - page.headerStart, T.I32);
    setInt(location, 3, firstRow, T.I64);
    // Flat columns: a v1 page's values are its rows; v2 counts its rows.
    firstRow += int(child(page.header, 8), 3) ?? int(child(page.header, 5), 1) ?? 0;
    return location;
  });
}

/** An RLE run of 2^30 values: a level or index decoder that trusts it fills a billion entries. */
const HUGE_RUN = [0x80, 0x80, 0x80, 0x80, 0x08];

interface Forged {
  readonly detail: string;
  /** Bytes to place at the end of the body, where the forged location points. */
  readonly extra?: Uint8Array;
}

function forgeLocation(locations: TStruct[], at: number, rng: Prng, pages: readonly PageSpot[], body: Uint8Array): Forged {
  const location = locations[at]!;
  const choice = rng.int(5);
  if (choice === 0) {
    const other = rng.pick(pages);
    setInt(location, 1, other.headerStart, T.I64);
    setInt(location, 2, other.dataEnd - other.headerStart, T.I32);
    return { detail: `-> the page at ${other.headerStart}` };
  }
  if (choice === 1) return appendForgedPage(locations, rng.pick(pages), rng, body);
  const [id, name, values] = [
    [1, 'offset', [rng.int(body.length), 0, -1, body.length, 2 ** 40]],
    [2, 'compressed_page_size', [0, -1, 2 ** 31 - 1, (int(location, 2) ?? 0) + 1 + rng.int(64), (int(location, 2) ?? 0) * 1000]],
    [3, 'first_row_index', [-1, 2 ** 31, 2 ** 53, (int(location, 3) ?? 0) + 1 + rng.int(1000), rng.int(4)]],
  ][choice - 2] as [number, string, number[]];
  const value = rng.pick(values);
  setInt(location, id, value, id === 2 ? T.I32 : T.I64);
  return { detail: `${name} = ${value}` };
}

/**
 * One more location, from the row after the last one's first, at a copy of a page with a run of
 * 2^30 levels or indices placed outside every chunk, where no walk over the chunks meets it.
 */
function appendForgedPage(locations: TStruct[], page: PageSpot, rng: Prng, body: Uint8Array): Forged {
  const extra = body.slice(page.headerStart, page.dataEnd);
  const into = rng.pick([0, 1, 4, 5]);
  const at = page.headerEnd - page.headerStart + into;
  if (at < extra.length) extra.set(HUGE_RUN.slice(0, extra.length - at), at);
  const location: TStruct = new Map();
  setInt(location, 1, body.length, T.I64);
  setInt(location, 2, extra.length, T.I32);
  setInt(location, 3, (int(locations[locations.length - 1], 3) ?? 0) + 1, T.I64);
  locations.push(location);
  return { detail: `-> a copy of the page at ${page.headerStart} with a run of 2^30 at data+${into}, from row ${int(location, 3)}`, extra };
}
