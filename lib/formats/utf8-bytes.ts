/**
 * UTF-8 as the engine reads text (column-decoder.ts): every byte sequence decodes, a malformed
 * one to U+FFFD, and a leading U+FEFF is kept. Well-formed bytes and their decoded text are then
 * one-to-one, so a rule or a hash can work on the bytes of a well-formed value and equal what it
 * does on the text; a malformed value is decoded (TEXT) and handled as text.
 */
export const TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * The code points of bytes [start, end) when they are well-formed UTF-8 (Unicode's table 3-7:
 * no overlong form, no surrogate, nothing past U+10FFFF), -1 when they are not.
 */
export function utf8CodePoints(bytes: Uint8Array, start: number, end: number): number {
  let count = 0;
  let i = start;
  while (i < end) {
    const lead = bytes[i]!;
    count++;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > end) return -1;
    const second = bytes[i + 1]!;
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) return -1;
    for (let k = 2; k < length; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) return -1;
    i += length;
  }
  return count;
}

/** Whether bytes [start, end) are all ASCII. */
export function isAscii(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}
