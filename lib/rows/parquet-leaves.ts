import type { SchemaElement } from 'hyparquet';

/**
 * How one leaf column is carried from the source to the rewritten file. The source is read
 * with every leaf annotation taken off (parquet-views.ts), so values arrive as the physical
 * values the file stores; hyparquet-writer writes through the leaf's real annotations, so some
 * must be given in the form its conversion turns back into the same physical value.
 */
export interface LeafPlan {
  readonly path: readonly string[];
  readonly element: SchemaElement;
  /** Turns a stored value (never null) into what hyparquet-writer writes back as the same bytes. */
  readonly prepare?: (value: unknown) => unknown;
  /**
   * Written through this plain element instead: the writer's conversion of the real annotation
   * cannot give the stored bytes back. The footer gets the real element (parquet-views.ts).
   */
  readonly writeAs?: SchemaElement;
  /** Why no statistics are written for the leaf, though the source has them. */
  readonly noStatistics?: string;
  /** A float carried as its bytes, whose bounds are computed here (parquet-float-statistics.ts). */
  readonly floatBounds?: boolean;
}

/**
 * Physical types read and written as their bytes (FIXED_LEN_BYTE_ARRAY of this length): INT96,
 * which hyparquet-writer cannot write, and floats, whose NaN sign and payload a JS array
 * canonicalizes. The same bytes are the same PLAIN, dictionary and BYTE_STREAM_SPLIT encoding.
 */
export const CARRIED_AS_BYTES: Readonly<Partial<Record<NonNullable<SchemaElement['type']>, number>>> = { INT96: 12, FLOAT: 4, DOUBLE: 8 };

/** Thrown by leafPlan for a leaf that cannot be carried exactly, with the type and why. */
export class UncarriedLeaf extends Error {
  /** The dotted path of the field it is about, set where it is thrown. */
  path: string | undefined;

  constructor(readonly type: string, readonly why: string) {
    super(why);
  }
}

/** Logical types hyparquet-writer writes back; a LogicalType union member beyond these would be lost. */
export const WRITABLE_LOGICAL_FIELDS: ReadonlySet<number> = new Set([1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 14, 15, 16, 17, 18]);

export function leafPlan(element: SchemaElement, path: readonly string[], nested: boolean): LeafPlan {
  if (element.repetition_type === 'REPEATED') throw new UncarriedLeaf(`repeated ${element.type}`, 'a repeated leaf (a list without the standard three-level LIST layout) cannot be written by hyparquet-writer');
  const base = { path, element };
  const logical = element.logical_type?.type;
  const converted = element.converted_type;
  if (element.type === 'INT96') return { ...base, writeAs: plainElement(element, 'FIXED_LEN_BYTE_ARRAY', 12), noStatistics: 'INT96 has no defined sort order' };
  if (element.type === 'FLOAT' || element.type === 'DOUBLE') {
    const writeAs = plainElement(element, 'FIXED_LEN_BYTE_ARRAY', CARRIED_AS_BYTES[element.type]);
    return nested ? { ...base, writeAs, noStatistics: 'float bounds inside a nested column are not recomputed' } : { ...base, writeAs, floatBounds: true };
  }
  if (converted === 'DECIMAL') return decimalPlan(base);
  if (logical === 'DECIMAL' && (element.type === 'FIXED_LEN_BYTE_ARRAY' || element.type === 'BYTE_ARRAY')) {
    // Without the converted type the writer compares the bytes unsigned, which is not the decimals' order.
    return { ...base, noStatistics: 'its DECIMAL bounds would be compared as unsigned bytes' };
  }
  if (isUnsigned(element, 32)) return { ...base, prepare: (v) => (v as number) >>> 0 };
  if (isUnsigned(element, 64)) return { ...base, prepare: (v) => BigInt.asUintN(64, v as bigint) };
  // The writer would JSON.stringify parsed values (whitespace, digits and key order would change).
  if (converted === 'JSON') return { ...base, writeAs: plainElement(element) };
  if (logical === 'FLOAT16') return { ...base, writeAs: plainElement(element), noStatistics: 'FLOAT16 bounds need a half-float comparison the writer does not make from bytes' };
  if (logical === 'GEOMETRY' || logical === 'GEOGRAPHY') return { ...base, writeAs: plainElement(element), noStatistics: 'geospatial statistics are not recomputed' };
  return base;
}

/** DECIMAL as the writer takes it: the unscaled value as a bigint, whatever the physical type. */
function decimalPlan(base: Pick<LeafPlan, 'path' | 'element'>): LeafPlan {
  switch (base.element.type) {
    case 'INT32': return { ...base, prepare: (v) => BigInt(v as number) };
    case 'INT64': return base;
    case 'FIXED_LEN_BYTE_ARRAY':
    case 'BYTE_ARRAY': return { ...base, prepare: (v) => signedBigInt(v as Uint8Array) };
    default: throw new UncarriedLeaf(`${base.element.type} DECIMAL`, 'DECIMAL on this physical type is not in the Parquet format');
  }
}

/** A big-endian two's-complement integer. */
export function signedBigInt(bytes: Uint8Array): bigint {
  if (bytes.length === 0) return 0n;
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes[0]! & 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}

export function isUnsigned(element: SchemaElement, bits: 32 | 64): boolean {
  const logical = element.logical_type;
  return element.converted_type === `UINT_${bits}` || (logical?.type === 'INTEGER' && logical.bitWidth === bits && !logical.isSigned);
}

/** The element with only its name, repetition, physical type and field id: bytes in, bytes out. */
export function plainElement(element: SchemaElement, type = element.type, typeLength = element.type_length): SchemaElement {
  return {
    name: element.name,
    type,
    ...(typeLength === undefined ? {} : { type_length: typeLength }),
    ...(element.repetition_type === undefined ? {} : { repetition_type: element.repetition_type }),
    ...(element.field_id === undefined ? {} : { field_id: element.field_id }),
  };
}
