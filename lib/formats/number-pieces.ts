import { isVector, vectorValueAt, type NumberVector } from './column-vector.js';

const isNumberVector = (value: unknown): value is NumberVector => isVector(value, 'number');

/**
 * A run of rows that crossed pages, from the pieces each page gave: one NumberVector when every
 * piece is one, else values (null for null) as a page read without vectors gives them.
 */
export function joinPieces(pieces: readonly (NumberVector | ArrayLike<unknown>)[], count: number): NumberVector | ArrayLike<unknown> {
  if (pieces.every(isNumberVector)) return joinVectors(pieces, count);
  const out = new Array<unknown>(count);
  let at = 0;
  for (const piece of pieces) {
    if (isNumberVector(piece)) for (let i = 0; i < piece.values.length; i++) out[at++] = vectorValueAt(piece, i);
    else for (let i = 0; i < piece.length; i++) out[at++] = piece[i];
  }
  return out;
}

function joinVectors(pieces: readonly NumberVector[], count: number): NumberVector {
  const values = new Float64Array(count);
  const present = pieces.some((piece) => piece.present) ? new Uint8Array(count) : undefined;
  let at = 0;
  for (const piece of pieces) {
    values.set(piece.values, at);
    if (present) {
      if (piece.present) present.set(piece.present, at);
      else present.fill(1, at, at + piece.values.length);
    }
    at += piece.values.length;
  }
  return present ? { kind: 'number', values, present } : { kind: 'number', values };
}
