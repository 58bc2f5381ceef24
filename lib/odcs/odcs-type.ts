import { formatColumnType, isNumericType, isTemporalType, parseColumnType, type ColumnType, type ColumnTypeKind } from '../contract/column-type.js';

/** What an ODCS property's type says, as far as a column check can use it. */
export type TypeMapping =
  | { readonly kind: 'type'; readonly type: ColumnType; readonly typeText: string; readonly note?: string }
  | { readonly kind: 'unsupported'; readonly reason: string }
  | { readonly kind: 'error'; readonly message: string };

export interface TypeHints {
  readonly logicalType?: string;
  readonly physicalType?: string;
  /** `logicalTypeOptions.format`: i32/i64/f32/f64 refine numbers, `binary` marks binary strings. */
  readonly format?: string;
  /** `logicalTypeOptions.timezone` of a timestamp: false means wall-clock values. */
  readonly timezone?: boolean;
}

const LOGICAL = ['string', 'date', 'timestamp', 'time', 'number', 'integer', 'object', 'array', 'boolean'];
const NESTED_LOGICAL = ['object', 'array', 'time'];
/** Integer widths that fit an int32; u32 and wider need an int64. */
const INT32_FORMATS = ['i8', 'i16', 'i32', 'u8', 'u16'];

/*
 * Physical type names, lower case with parameters removed (`varchar(18)` is `varchar`). Where
 * engines disagree we chose: `int8` is Postgres' 8-byte integer; bare `float` is double precision
 * (Postgres, Snowflake, BigQuery), not MySQL's single; plain `timestamp` is an instant unless
 * `logicalTypeOptions.timezone: false` says otherwise (ODCS reads zone-less values as UTC);
 * `datetime` is wall-clock. `contractGate.type` on the property overrides any of this.
 */
const PHYSICAL: Readonly<Record<string, ColumnTypeKind>> = {
  ...words('string', 'string varchar char character nvarchar nchar text bpchar uuid clob citext json jsonb xml enum varchar2 nvarchar2 nclob rowid urowid'),
  ...words('binary', 'binary varbinary bytea blob bytes raw'),
  ...words('int32', 'tinyint smallint mediumint int integer int2 int4 serial smallserial serial2 serial4 short byte'),
  ...words('int64', 'bigint int8 int64 long bigserial serial8'),
  ...words('float32', 'real float4 float32'),
  ...words('float64', 'double float float8 float64'),
  ...words('boolean', 'bool boolean bit'),
  ...words('date', 'date'),
  ...words('timestamp', 'timestamptz timestamp_tz timestamp_ltz datetimeoffset instant'),
  ...words('timestamp_ntz', 'timestamp_ntz datetime datetime2 smalldatetime'),
  'character varying': 'string',
  'double precision': 'float64',
  'timestamp with time zone': 'timestamp',
  'timestamp with local time zone': 'timestamp',
  'timestamp without time zone': 'timestamp_ntz',
};

const NESTED_PHYSICAL = new Set(['array', 'list', 'struct', 'map', 'object', 'record', 'row', 'variant', 'super', 'time', 'timetz', 'time with time zone', 'interval', 'geometry', 'geography', 'bfile']);

const DECIMAL = /^(?:decimal|numeric|number|dec)\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/;
const BARE_DECIMAL = new Set(['decimal', 'numeric', 'number', 'dec']);

/**
 * Maps `logicalType` refined by `physicalType`. The physical type wins when we know it, since it
 * is what the files hold: `logicalType: date` over `physicalType: timestamp` is a timestamp.
 */
export function mapOdcsType(hints: TypeHints): TypeMapping {
  const { logicalType: logical, physicalType } = hints;
  if (logical !== undefined && !LOGICAL.includes(logical)) {
    return { kind: 'error', message: `unknown logicalType "${logical}"; expected one of ${LOGICAL.join(', ')}` };
  }
  if (logical !== undefined && NESTED_LOGICAL.includes(logical)) {
    return { kind: 'unsupported', reason: `logicalType ${logical} has no contract-gate column type` };
  }
  const physical = physicalType === undefined ? undefined : mapPhysical(physicalType, hints.timezone);
  if (physical === 'nested') return { kind: 'unsupported', reason: `physicalType ${physicalType} has no contract-gate column type` };
  const fromLogical = logical === undefined ? undefined : mapLogical(logical, hints);
  if (physical) {
    const type = hints.format === undefined ? physical : wider(physical, fromLogical);
    const note = fromLogical && family(fromLogical) !== family(physical)
      ? `physicalType "${physicalType}" disagrees with logicalType ${logical}; the column is checked as ${formatColumnType(physical)}, what the files hold`
      : undefined;
    return { kind: 'type', type, typeText: textOf(type, physicalType), ...(note ? { note } : {}) };
  }
  if (fromLogical) {
    const note = physicalType === undefined ? undefined
      : `physicalType "${physicalType}" is not a type contract-gate knows; the column is checked as ${formatColumnType(fromLogical)} from logicalType ${logical}`;
    return { kind: 'type', type: fromLogical, typeText: formatColumnType(fromLogical), ...(note ? { note } : {}) };
  }
  // An engine's own type (Oracle's BFILE, a vendor extension) is valid ODCS: the column goes unchecked, with a warning.
  return physicalType === undefined
    ? { kind: 'error', message: 'the property has neither logicalType nor physicalType; contract-gate needs one to check the column type' }
    : { kind: 'unsupported', reason: `physicalType "${physicalType}" is not a type contract-gate knows and there is no logicalType (set contractGate.type to check it)` };
}

function mapPhysical(text: string, timezone: boolean | undefined): ColumnType | 'nested' | undefined {
  const normal = text.trim().toLowerCase().replace(/\s+/g, ' ');
  const native = parseColumnType(normal);
  if (native) return native.kind === 'timestamp' && timezone === false ? { kind: 'timestamp_ntz' } : native;
  const decimal = DECIMAL.exec(normal);
  if (decimal) return parseColumnType(`decimal(${decimal[1]},${decimal[2] ?? 0})`);
  // Unbounded numerics: the widest decimal that still takes int32, int64 and decimals of scale <= 18.
  if (BARE_DECIMAL.has(normal)) return { kind: 'decimal', precision: 38, scale: 18 };
  const base = normal.replace(/\s*(\([^)]*\)|\[[^\]]*\]|<.*>)\s*/g, ' ').trim(); // varchar(18), varchar[15], struct<a:int>
  if (base === 'timestamp') return { kind: timezone === false ? 'timestamp_ntz' : 'timestamp' }; // timestamp(6)
  if (NESTED_PHYSICAL.has(base) || base.startsWith('interval ')) return 'nested';
  const kind = PHYSICAL[base];
  return kind === undefined ? undefined : { kind } as ColumnType;
}

function mapLogical(logical: string, hints: TypeHints): ColumnType | undefined {
  const format = hints.format?.toLowerCase();
  switch (logical) {
    case 'string': return { kind: format === 'binary' ? 'binary' : 'string' };
    // Without a width, int64: an int64 column also accepts files that store int32.
    case 'integer': return { kind: format !== undefined && INT32_FORMATS.includes(format) ? 'int32' : 'int64' };
    // Without a width, float64: it also accepts float32 and int32 files.
    case 'number': return { kind: format === 'f32' ? 'float32' : 'float64' };
    case 'boolean': return { kind: 'boolean' };
    case 'date': return { kind: 'date' };
    case 'timestamp': return { kind: hints.timezone === false ? 'timestamp_ntz' : 'timestamp' };
    default: return undefined;
  }
}

/**
 * `physicalType: int` with `format: i64` names two widths. The wider wins: an int64 (float64)
 * column also accepts files storing int32 (float32), so it refuses no file either one allows.
 */
function wider(physical: ColumnType, logical: ColumnType | undefined): ColumnType {
  if (physical.kind === 'int32' && logical?.kind === 'int64') return logical;
  if (physical.kind === 'float32' && logical?.kind === 'float64') return logical;
  return physical;
}

/** The declared text when it is a native type name, so messages quote what the author wrote. */
function textOf(type: ColumnType, physicalType: string | undefined): string {
  const declared = physicalType?.trim();
  const native = declared === undefined ? undefined : parseColumnType(declared);
  return native && formatColumnType(native) === formatColumnType(type) ? declared! : formatColumnType(type);
}

function family(type: ColumnType): string {
  if (isNumericType(type)) return 'number';
  if (isTemporalType(type)) return 'temporal';
  return type.kind === 'binary' ? 'string' : type.kind;
}

function words(kind: ColumnTypeKind, list: string): Record<string, ColumnTypeKind> {
  return Object.fromEntries(list.split(' ').map((name) => [name, kind]));
}
