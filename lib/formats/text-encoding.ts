import type { CsvEncoding } from '../contract/csv-dialect.js';
import { UnreadableError } from './table-file.js';

/**
 * A CSV's text in chunks as UTF-8, whatever `produces.csv.encoding` says it is written in: the
 * scanner works on UTF-8 bytes. Each chunk is decoded as it comes (a character split between
 * chunks is held over), so memory stays at a chunk. A UTF-8 file that starts with a UTF-16 byte
 * order mark (Excel's "Unicode text", PowerShell's Out-File) is refused naming the key to set.
 */
/** Node declares TextDecoder as a value only, outside the DOM library. */
type Decoder = InstanceType<typeof TextDecoder>;

export async function* utf8Chunks(chunks: AsyncGenerator<Uint8Array>, encoding: CsvEncoding): AsyncGenerator<Uint8Array> {
  if (encoding === 'utf-8') return yield* checkedUtf8(chunks);
  let decoder: Decoder | undefined;
  // utf-16 looks for its byte order mark in the first two bytes, which a tiny chunk may split.
  let held = new Uint8Array(0);
  try {
    for await (const chunk of chunks) {
      if (decoder === undefined && held.length + chunk.length < 2) {
        held = Buffer.concat([held, chunk]);
        continue;
      }
      const bytes = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
      held = new Uint8Array(0);
      decoder ??= decoderFor(encoding, bytes);
      yield Buffer.from(decoder.decode(bytes, { stream: true }), 'utf8');
    }
    decoder ??= held.length > 0 ? decoderFor(encoding, held) : undefined;
    if (decoder) yield Buffer.from(decoder.decode(held.length > 0 ? held : undefined), 'utf8');
  } catch (error) {
    if (error instanceof TypeError) throw new UnreadableError(`the file is not valid ${encoding} (${error.message}), as produces.csv.encoding says it is`, { cause: error });
    throw error;
  }
}

async function* checkedUtf8(chunks: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  let first = true;
  for await (const chunk of chunks) {
    if (first && chunk.length >= 2 && isUtf16Bom(chunk)) {
      await chunks.return(undefined);
      throw new UnreadableError('the file starts with a UTF-16 byte order mark: it is written in UTF-16; set produces.csv.encoding: utf-16, or write it as UTF-8');
    }
    first = false;
    yield chunk;
  }
}

function isUtf16Bom(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** `utf-16` takes its byte order from the mark it must start with; latin1 is ISO-8859-1 byte for code point. */
function decoderFor(encoding: Exclude<CsvEncoding, 'utf-8'>, first: Uint8Array): Decoder {
  if (encoding === 'latin1') return new Latin1Decoder() as unknown as Decoder;
  if (encoding === 'windows-1252') return new TextDecoder('windows-1252');
  if (encoding !== 'utf-16') return new TextDecoder(encoding, { fatal: true });
  if (first[0] === 0xff && first[1] === 0xfe) return new TextDecoder('utf-16le', { fatal: true });
  if (first[0] === 0xfe && first[1] === 0xff) return new TextDecoder('utf-16be', { fatal: true });
  throw new UnreadableError('the file has no UTF-16 byte order mark, and produces.csv.encoding is utf-16: set utf-16le or utf-16be, whichever the producer writes');
}

/** TextDecoder's 'latin1' is windows-1252 (WHATWG); this is the real thing, bytes 0x80-0x9F included. */
class Latin1Decoder {
  decode(chunk?: Uint8Array): string {
    return chunk === undefined ? '' : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
  }
}
