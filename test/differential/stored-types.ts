import type { ColumnType } from '../../lib/contract/column-type.js';

/**
 * Parquet types a file may carry instead of the contract's. "Wrong" ones lose values or mean
 * something else (README: a type satisfies only when it reads without loss); "lossless" ones
 * read without loss, so the column must be checked as if the contract type were stored.
 */
export function wrongTypes(type: ColumnType): ColumnType[] {
  switch (type.kind) {
    case 'string': return [{ kind: 'int64' }, { kind: 'binary' }, { kind: 'boolean' }];
    case 'int32': return [{ kind: 'int64' }, { kind: 'float64' }, { kind: 'string' }, { kind: 'decimal', precision: 10, scale: 0 }];
    case 'int64': return [{ kind: 'float64' }, { kind: 'string' }, { kind: 'decimal', precision: 18, scale: 0 }];
    case 'float32': return [{ kind: 'float64' }, { kind: 'int32' }];
    case 'float64': return [{ kind: 'string' }, { kind: 'int64' }, { kind: 'decimal', precision: 10, scale: 2 }];
    case 'decimal': return wrongDecimals(type);
    case 'boolean': return [{ kind: 'int32' }, { kind: 'string' }];
    case 'date': return [{ kind: 'timestamp' }, { kind: 'string' }, { kind: 'int32' }];
    case 'timestamp': return [{ kind: 'timestamp_ntz' }, { kind: 'date' }, { kind: 'int64' }];
    case 'timestamp_ntz': return [{ kind: 'timestamp' }, { kind: 'string' }];
    case 'binary': return [{ kind: 'int32' }, { kind: 'boolean' }];
  }
}

function wrongDecimals(type: { precision: number; scale: number }): ColumnType[] {
  const { precision: p, scale: s } = type;
  const out: ColumnType[] = [{ kind: 'float64' }];
  if (p < 38) out.push({ kind: 'decimal', precision: p + 1, scale: s + 1 <= 18 ? s + 1 : s });
  if (p - s < 19) out.push({ kind: 'int64' });
  if (p - s < 10) out.push({ kind: 'int32' });
  return out;
}

export function losslessTypes(type: ColumnType): ColumnType[] {
  switch (type.kind) {
    case 'int64': return [{ kind: 'int32' }];
    case 'float64': return [{ kind: 'float32' }, { kind: 'int32' }];
    case 'binary': return [{ kind: 'string' }];
    case 'decimal': return narrowerDecimals(type);
    default: return [];
  }
}

function narrowerDecimals(type: { precision: number; scale: number }): ColumnType[] {
  const { precision: p, scale: s } = type;
  const out: ColumnType[] = [];
  if (p > 1) out.push({ kind: 'decimal', precision: p - 1, scale: Math.max(0, s - 1) });
  if (p - s >= 10) out.push({ kind: 'int32' });
  if (p - s >= 19) out.push({ kind: 'int64' });
  return out;
}
