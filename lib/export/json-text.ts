/**
 * JSON.stringify, except that bigints are written as exact integer literals. int64 bounds such as
 * 2^63-1 have no exact double, and JSON.stringify would print 9223372036854776000, which a
 * validator with exact integers (Python's, Java's) reads as a different bound.
 */
export function stringifyJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? `${MARK}${item}` : item), 2);
  // JSON.stringify escapes the NUL, so only a string that is exactly NUL, the tag and digits can collide.
  return text.replace(/"\\u0000bigint:(-?\d+)"/g, '$1');
}

const MARK = '\u0000bigint:';
