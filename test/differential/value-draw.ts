import { isOrderedType, type ColumnType } from '../../lib/contract/column-type.js';
import type { SpecColumn } from './contract-spec.js';
import { drawOrdered } from './draw-ordered.js';
import { drawEdgeOrdered } from './edge-draw.js';
import { drawEdgeFloats } from './edge-floats.js';
import { drawEdgeStrings } from './edge-strings.js';
import type { Random } from './random-tools.js';
import { drawStringShape } from './string-shapes.js';

/** Which rule a planted value is meant to break; `special` is NaN, ±Infinity or -0 in a float column. */
export type PlantRule = 'min' | 'max' | 'not_in_future' | 'enum' | 'pattern' | 'length' | 'special';

export interface Plant {
  readonly rule: PlantRule;
  readonly value: (r: Random) => unknown;
}

export type ValueRules = Pick<SpecColumn, 'enum' | 'min' | 'max' | 'pattern' | 'minLength' | 'maxLength' | 'notInFuture'>;

/** A column's value rules, where its good values come from, and its plants. */
export interface ValueDraw {
  readonly rules: ValueRules;
  readonly good: (r: Random) => unknown;
  readonly plants: readonly Plant[];
  /** Good values are diverse enough for a unique column or a grain's first part. */
  readonly roomy: boolean;
}

/** Rules and values by type: bounds for ordered types, a shape (enum, pattern, lengths) for strings. */
export function drawValues(type: ColumnType, r: Random, now: number): ValueDraw {
  const edge = drawEdges(type, r, now);
  if (edge) return edge;
  if (isOrderedType(type)) {
    const { good, plants, ...rules } = drawOrdered(type, now, r);
    return { rules, good, plants, roomy: type.kind !== 'decimal' || type.precision >= 6 };
  }
  if (type.kind === 'string') return drawStrings(r);
  if (type.kind === 'boolean') return { rules: { notInFuture: false }, good: (rr) => rr.chance(0.5), plants: [], roomy: false };
  return { rules: { notInFuture: false }, good: randomBytes, plants: [], roomy: true };
}

/** A third of ordered columns and a quarter of string columns take their values and bounds at the type's edges. */
function drawEdges(type: ColumnType, r: Random, now: number): ValueDraw | undefined {
  if (type.kind === 'float32' || type.kind === 'float64') return r.chance(0.35) ? drawEdgeFloats(type.kind === 'float32', r) : undefined;
  if (isOrderedType(type)) return r.chance(0.35) ? drawEdgeOrdered(type, now, r) : undefined;
  return type.kind === 'string' && r.chance(0.25) ? drawEdgeStrings(r) : undefined;
}

/** Random bytes, often not valid UTF-8, so a reader that decodes binary as text loses them. */
export function randomBytes(r: Random): Uint8Array {
  const ascii = r.chance(0.3);
  return Uint8Array.from({ length: r.between(0, 12) }, () => (ascii ? r.between(0x20, 0x7e) : r.int(256)));
}

function drawStrings(r: Random): ValueDraw {
  const shape = drawStringShape(r);
  const plants: Plant[] = [];
  if (shape.bad) plants.push({ rule: shape.enum ? 'enum' : 'pattern', value: shape.bad });
  const lengths = r.chance(0.4) ? drawLengths(shape.good, r) : {};
  const { minLength, maxLength } = lengths;
  if (minLength !== undefined && minLength > 0) plants.push({ rule: 'length', value: (rr) => astral(rr, minLength - 1) });
  if (maxLength !== undefined) plants.push({ rule: 'length', value: (rr) => astral(rr, maxLength + 1) });
  const free = !shape.pattern && !shape.enum;
  // At a bound, in characters that take two UTF-16 units: lengths count code points.
  const atBound = [minLength, maxLength].filter((n): n is number => n !== undefined);
  const good = (rr: Random) => (free && atBound.length > 0 && rr.chance(0.05) ? astral(rr, rr.pick(atBound)) : shape.good(rr));
  return { rules: { enum: shape.enum, pattern: shape.pattern, ...lengths, notInFuture: false }, good, plants, roomy: shape.roomy };
}

function drawLengths(good: (r: Random) => string, r: Random): { minLength?: number; maxLength?: number } {
  const seen = Array.from({ length: 40 }, () => [...good(r)].length);
  const low = Math.max(0, Math.min(...seen) - r.pick([0, 0, 1]));
  const high = Math.max(...seen) + r.pick([0, 0, 2]);
  const which = r.pick(['min', 'max', 'both'] as const);
  return { ...(which !== 'max' ? { minLength: low } : {}), ...(which !== 'min' ? { maxLength: high } : {}) };
}

/** A string of exactly `points` code points, mostly astral and accented ones. */
function astral(r: Random, points: number): string {
  let text = '';
  for (let i = 0; i < points; i++) text += r.pick(['😀', '𝄞', 'é', 'a', '中']);
  return text;
}
