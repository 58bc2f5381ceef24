/**
 * The emulator's reversible mapping from an S3 key to file-system names, so that every key is
 * stored literally (S3 keys are opaque strings: `a/../b`, `a//b`, `.` and a trailing `/` are
 * ordinary keys) and nothing can ever resolve outside the bucket's folder.
 *
 * A key is split on `/` into segments; each segment becomes one or more names:
 * - A byte is written as `%XX` (upper-case hex of its UTF-8 bytes) when it is `%`, a control
 *   character, one of `\ : * ? " < > |`, any non-ASCII byte (so NFC and NFD spellings stay two
 *   files on file systems that normalise Unicode), a `.` starting a name (so no name is `.`,
 *   `..`, or looks like the emulator's hidden `.….writing` files), or the `.` of `._S3rver_`
 *   in any letter case (so no folder is mistaken for s3rver's `<name>._S3rver_<resource>` files).
 * - The empty segment (from `a//b`, a leading or trailing `/`) is the name `%`.
 * - A segment whose encoding would pass PIECE_BYTES is cut into pieces between characters;
 *   every piece but the last is a folder named `<piece>%+`, so a 300-byte segment is two nested
 *   names instead of one the file system would refuse (255 bytes at most).
 * `%` never appears unescaped and `%+` is no escape, so decoding is unambiguous; a name that
 * does not re-encode to itself is not ours (s3rver's upload folder, half-written files) and is
 * not a key.
 */

/** The longest piece; leaves room for s3rver's longest suffix (`._S3rver_metadata.json`). */
const PIECE_BYTES = 200;
const EMPTY_SEGMENT = '%';
const CONTINUES = '%+';
const OBJECT_SUFFIX = '._S3rver_object';
const UNSAFE_ASCII = /[%\\:*?"<>|\u0000-\u001f\u007f]/;
const SUFFIX_MARK = /^\._s3rver_/i;

export interface KeyNames {
  /** Folders from the bucket's folder down to the key's last name. */
  readonly folders: string[];
  /** The last name; s3rver appends `._S3rver_<resource>` to it. */
  readonly base: string;
}

export function keyNames(key: string): KeyNames {
  const names = key.split('/').flatMap(segmentNames);
  return { folders: names.slice(0, -1), base: names.at(-1) ?? EMPTY_SEGMENT };
}

/** The key part a folder stands for: its segment and `/`, or a piece of a longer segment. */
export function folderKeyPart(name: string): string | undefined {
  if (name === EMPTY_SEGMENT) return '/';
  if (name.endsWith(CONTINUES)) return decodePiece(name.slice(0, -CONTINUES.length));
  const segment = decodePiece(name);
  return segment === undefined ? undefined : `${segment}/`;
}

/** The key part an object file stands for (its last segment, or last piece), if it is one. */
export function objectKeyPart(fileName: string): string | undefined {
  if (!fileName.endsWith(OBJECT_SUFFIX)) return undefined;
  const base = fileName.slice(0, -OBJECT_SUFFIX.length);
  if (base === EMPTY_SEGMENT) return '';
  return base.endsWith(CONTINUES) ? undefined : decodePiece(base);
}

export function isObjectFileName(fileName: string): boolean {
  return fileName.endsWith(OBJECT_SUFFIX);
}

function segmentNames(segment: string): string[] {
  if (segment === '') return [EMPTY_SEGMENT];
  const pieces = splitPieces(segment).map(encodePiece);
  return pieces.map((piece, at) => (at < pieces.length - 1 ? piece + CONTINUES : piece));
}

/** Cuts between code points; counts every `.` as escaped, so a piece never outgrows its bound. */
function splitPieces(segment: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  let bytes = 0;
  for (const char of segment) {
    const cost = char === '.' || needsEscape(char) ? 3 * Buffer.byteLength(char) : 1;
    if (bytes + cost > PIECE_BYTES) {
      pieces.push(piece);
      piece = '';
      bytes = 0;
    }
    piece += char;
    bytes += cost;
  }
  return [...pieces, piece];
}

function encodePiece(piece: string): string {
  let name = '';
  let at = 0;
  for (const char of piece) {
    const dotToHide = char === '.' && (at === 0 || SUFFIX_MARK.test(piece.slice(at)));
    name += dotToHide || needsEscape(char) ? escape(char) : char;
    at += char.length;
  }
  return name;
}

function needsEscape(char: string): boolean {
  return char.charCodeAt(0) > 0x7e || UNSAFE_ASCII.test(char);
}

function escape(char: string): string {
  return [...Buffer.from(char, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/** Undefined for a name the encoder would not have written (so it is not a key's). */
function decodePiece(name: string): string | undefined {
  if (name === '' || !/^(?:[^%]|%[0-9A-F]{2})*$/.test(name)) return undefined;
  let piece: string;
  try {
    piece = decodeURIComponent(name);
  } catch {
    return undefined;
  }
  return encodePiece(piece) === name ? piece : undefined;
}
