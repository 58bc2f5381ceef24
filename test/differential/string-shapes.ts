import { hexId, PATTERN_SHAPES } from './pattern-shapes.js';
import type { Random } from './random-tools.js';
import { freeText, type StringShape } from './string-shape.js';

const WORDS = ['placed', 'paid', 'cancelled', 'refunded', 'pending', 'a', 'B', 'é', '中文', 'x y', ' ', 'NULL', 'true', '1', '😀', 'e\u0301'];

function enumShape(r: Random): StringShape {
  const values = r.shuffle(WORDS).slice(0, r.between(1, 6));
  const others = WORDS.filter((w) => !values.includes(w));
  const bad = (rr: Random) => {
    const base = rr.pick(values);
    const candidates = [base.toUpperCase(), `${base} `, ` ${base}`, ...others].filter((v) => !values.includes(v));
    return candidates.length > 0 ? rr.pick(candidates) : `${base}!`;
  };
  return { enum: values, good: (rr) => rr.pick(values), bad, roomy: false };
}

/** Short text mostly; now and then values of kilobytes, which fill pages with few values. */
function free(r: Random): StringShape {
  const long = r.chance(0.05);
  const low = long ? r.between(1000, 5000) : r.between(0, 3);
  const high = low + (long ? r.between(0, 15_000) : r.between(0, 30));
  return { good: (rr) => freeText(rr, low, high), roomy: high >= 6 };
}

export function drawStringShape(r: Random): StringShape {
  return r.weighted<(rr: Random) => StringShape>([
    [4, free], [3, enumShape], [2, hexId], ...PATTERN_SHAPES.map((shape) => [1, shape] as const),
  ])(r);
}
