/** A key a writer recorded in a Parquet footer's key-value metadata. */
export interface DeclaredKey {
  readonly columns: readonly string[];
  /** Who declared it, for the proposal's comments: `the pandas index (metadata "pandas")`. */
  readonly source: string;
  /** Files whose footer declares it, of `of` files read. */
  files: number;
  of: number;
}

type Found = Omit<DeclaredKey, 'files' | 'of'>;

/** One key-value pair of a Parquet footer. */
export interface KeyValue {
  readonly key: string;
  readonly value?: string;
}

/** pandas stores an unnamed index as `__index_level_0__`: a row number, no business key. */
const UNNAMED_INDEX = /^__index_level_\d+__$/;

/**
 * The keys a file's writer declared. Parquet has no key of its own; two writers record one:
 * pandas (`pandas`: `index_columns`, the columns of a named index; a RangeIndex is not stored)
 * and Iceberg (`iceberg.schema`: `identifier-field-ids`). DuckDB, Spark, polars and arrow-rs
 * record none, and CSV and JSON Lines have no footer. A declaration is a claim: the samples
 * must still show the key unique.
 */
export function keysFromMetadata(pairs: readonly KeyValue[], columns: ReadonlySet<string>): Found[] {
  const keys: Found[] = [];
  for (const { key, value } of pairs) {
    const json = value === undefined ? undefined : parseJson(value);
    const found = key === 'pandas' ? pandasIndex(json) : key === 'iceberg.schema' ? icebergIdentifiers(json) : undefined;
    if (found && found.length > 0 && found.every((name) => columns.has(name))) {
      keys.push({ columns: found, source: key === 'pandas' ? 'the pandas index (Parquet metadata "pandas")' : 'the Iceberg identifier fields (Parquet metadata "iceberg.schema")' });
    }
  }
  return keys;
}

/** Adds a file's declarations to those of the files before it; `of` is set once all are read. */
export function mergeDeclared(into: DeclaredKey[], found: readonly Found[]): void {
  for (const key of found) {
    const same = into.find((k) => k.source === key.source && k.columns.join('\u0000') === key.columns.join('\u0000'));
    if (same) same.files++;
    else into.push({ ...key, files: 1, of: 0 });
  }
}

function pandasIndex(json: unknown): string[] | undefined {
  const index = isRecord(json) ? json['index_columns'] : undefined;
  if (!Array.isArray(index)) return undefined;
  // A RangeIndex is a description ({kind: "range", ...}), not a stored column.
  const names = index.filter((entry): entry is string => typeof entry === 'string');
  return names.length === index.length && !names.some((n) => UNNAMED_INDEX.test(n)) ? names : undefined;
}

function icebergIdentifiers(json: unknown): string[] | undefined {
  if (!isRecord(json)) return undefined;
  const ids = json['identifier-field-ids'];
  const fields = json['fields'];
  if (!Array.isArray(ids) || !Array.isArray(fields)) return undefined;
  const names = new Map(fields.filter(isRecord).map((f) => [f['id'], f['name']]));
  const columns = ids.map((id) => names.get(id));
  return columns.every((c): c is string => typeof c === 'string') ? columns : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
