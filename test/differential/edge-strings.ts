import type { Random } from './random-tools.js';
import type { Plant, ValueDraw } from './value-draw.js';

/**
 * Characters by how they are stored and counted: 1-4 UTF-8 bytes, a surrogate pair in UTF-16,
 * combining marks and joiners (one code point each, no character of their own), a BOM. README:
 * lengths count code points, so `😀` is 1, `e\u0301` is 2.
 */
const CHARS = ['a', ' ', 'é', 'ß', '中', '😀', '𝄞', '\u0301', '\u200d', '\ufeff', '€'];
/** Look-alikes: NFC and NFD of é, a trailing space, a BOM in front, other case. */
// No empty string: the loader refuses one in an enum (an empty value is how CSV writes null), with its line and column.
const ENUM_VALUES = ['é', 'e\u0301', '😀', '👩\u200d💻', 'ß', 'a', 'A'];
const ENUM_BAD = ['É', 'é ', '\ufeffé', 'e\u0301', 'é', 'SS', '😀\u200d', ' ', 'a'];

export function drawEdgeStrings(r: Random): ValueDraw {
  if (r.chance(0.25)) return edgeEnum(r);
  const maxLength = r.chance(0.7) ? r.pick([0, 1, 2, 3, 4, 8, 255, 256]) : undefined;
  const minLength = r.chance(0.5) ? Math.min(maxLength ?? 300, r.pick([0, 1, 1, 2, 4, 255])) : undefined;
  const [low, high] = [minLength ?? 0, maxLength ?? Math.max(minLength ?? 0, 12)];
  const good = (rr: Random) => text(rr, rr.weighted([[2, low], [2, high], [3, rr.between(low, high)], [1, Math.min(high, low + 1)]]));
  const plants: Plant[] = [];
  if (minLength !== undefined && minLength > 0) plants.push({ rule: 'length', value: (rr) => text(rr, rr.pick([minLength - 1, minLength - 1, 0])) });
  if (maxLength !== undefined) plants.push({ rule: 'length', value: (rr) => text(rr, maxLength + rr.pick([1, 1, 2, 40])) });
  const lengths = { ...(minLength !== undefined ? { minLength } : {}), ...(maxLength !== undefined ? { maxLength } : {}) };
  return { rules: { ...lengths, notInFuture: false }, good, plants, roomy: high >= 3 };
}

function edgeEnum(r: Random): ValueDraw {
  const listed = [...new Set(r.shuffle(ENUM_VALUES).slice(0, r.between(2, 5)))];
  const bad = ENUM_BAD.filter((v) => !listed.includes(v));
  return { rules: { enum: listed, notInFuture: false }, good: (rr) => rr.pick(listed), plants: [{ rule: 'enum', value: (rr) => rr.pick(bad) }], roomy: false };
}

/** Exactly `points` code points, from every kind of character. */
function text(r: Random, points: number): string {
  const kind = r.pick(['mixed', 'astral', 'marks', 'ascii']);
  let out = '';
  for (let i = 0; i < points; i++) out += kind === 'astral' ? '😀' : kind === 'marks' ? r.pick(['e', '\u0301']) : kind === 'ascii' ? 'x' : r.pick(CHARS);
  return out;
}
