import { bitFlip, byteStomp, cutMiddle, footerBitFlip, footerLength, truncate, type Mutated } from './byte-mutations.js';
import { deepSchema, forgedCount, forgedOffset, schemaForge } from './footer-mutations.js';
import { forgedPageIndex } from './page-index-mutations.js';
import { forgedPageCount, forgedPageSize, forgedRunLength } from './page-mutations.js';
import type { Prng } from './prng.js';

type Mutation = (file: Uint8Array, rng: Prng) => Mutated | undefined;

/** Every kind of damage the fuzzer deals, by the name the summary reports it under. */
export const MUTATIONS = {
  'bit-flip': bitFlip,
  'footer-bit-flip': footerBitFlip,
  'byte-stomp': byteStomp,
  'truncate': truncate,
  'cut-middle': cutMiddle,
  'footer-length': footerLength,
  'forged-count': forgedCount,
  'forged-offset': forgedOffset,
  'forged-page-size': forgedPageSize,
  'forged-page-count': forgedPageCount,
  'forged-run-length': forgedRunLength,
  'forged-page-index': forgedPageIndex,
  'deep-schema': deepSchema,
  'schema-forge': schemaForge,
} satisfies Record<string, Mutation>;

export type MutationKind = keyof typeof MUTATIONS;
export const MUTATION_KINDS = Object.keys(MUTATIONS) as MutationKind[];

/**
 * Applies one mutation; a structural one that finds nothing to aim at (a file without pages of
 * that kind) falls back to a bit flip, reported as such so the table stays honest.
 */
export function mutate(kind: MutationKind, file: Uint8Array, rng: Prng): Mutated & { kind: MutationKind } {
  const mutated = (MUTATIONS[kind] as Mutation)(file, rng);
  return mutated ? { ...mutated, kind } : { ...bitFlip(file, rng), kind: 'bit-flip' };
}
