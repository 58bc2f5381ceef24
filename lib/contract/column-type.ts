/** The column types a contract can declare, parsed from strings such as `decimal(12,2)`. */
export type ColumnType =
  | { kind: 'string' | 'int32' | 'int64' | 'float32' | 'float64' | 'boolean' | 'date' | 'timestamp' | 'timestamp_ntz' | 'binary' }
  | { kind: 'decimal'; precision: number; scale: number };

export type ColumnTypeKind = ColumnType['kind'];

const SIMPLE_KINDS = ['string', 'int32', 'int64', 'float32', 'float64', 'boolean', 'date', 'timestamp', 'timestamp_ntz', 'binary'] as const;

const DECIMAL = /^decimal\(\s*(\d+)\s*,\s*(\d+)\s*\)$/;

/** Parses a type name; returns undefined when the text names no type we know. */
export function parseColumnType(text: string): ColumnType | undefined {
  const simple = SIMPLE_KINDS.find((kind) => kind === text);
  if (simple) return { kind: simple };
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  const precision = Number(match[1]);
  const scale = Number(match[2]);
  if (precision < 1 || precision > 38 || scale > precision) return undefined;
  return { kind: 'decimal', precision, scale };
}

export function formatColumnType(type: ColumnType): string {
  return type.kind === 'decimal' ? `decimal(${type.precision},${type.scale})` : type.kind;
}

export function isNumericType(type: ColumnType): boolean {
  return ['int32', 'int64', 'float32', 'float64', 'decimal'].includes(type.kind);
}

export function isTemporalType(type: ColumnType): boolean {
  return type.kind === 'date' || type.kind === 'timestamp' || type.kind === 'timestamp_ntz';
}

/** Types whose values can be compared with `min`/`max`. */
export function isOrderedType(type: ColumnType): boolean {
  return isNumericType(type) || isTemporalType(type);
}
