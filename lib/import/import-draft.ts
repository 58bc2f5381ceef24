/**
 * A native contract being assembled by an importer, in the native file's own shape (snake_case
 * keys, text values), so the writer prints it as a person would write it and the native loader
 * checks it like any other file. Notes are the YAML comments: what the source said that the
 * contract does not carry, next to where it would go.
 */
export interface DraftColumn {
  name: string;
  type: string;
  required?: boolean;
  required_when?: { column: string; in: (string | number | boolean)[] };
  enum?: (string | number)[];
  min?: number | bigint | string;
  max?: number | bigint | string;
  pattern?: string;
  min_length?: number;
  max_length?: number;
  unique?: boolean;
  not_in_future?: boolean;
  references?: { contract: string; column: string; major?: number; partition?: string };
  /** What a row without the column reads as. */
  default?: string | number | boolean;
  /** Rules (severity keys) the source runs as warnings. */
  severity?: Record<string, 'warn'>;
  description?: string;
}

export interface DraftSla {
  arrival_by?: string;
  timezone?: string;
  max_lag_hours?: number;
  warn_lag_hours?: number;
  freshness_column?: string;
  min_rows?: number;
  max_rows?: number;
}

export interface DraftConsumer {
  team: string;
  notify?: string[];
  columns?: string[];
}

export interface Draft {
  name?: string;
  version?: string;
  status?: 'active' | 'retired';
  description?: string;
  owner: { team?: string; notify?: string[] };
  produces: { format?: 'parquet' | 'csv' | 'jsonl'; partition?: string };
  schema: { grain?: string[]; extra_columns?: 'allow' | 'warn' | 'reject'; severity?: { grain?: 'warn'; extra_columns?: 'warn' }; columns: DraftColumn[] };
  sla?: DraftSla;
  consumers?: DraftConsumer[];
  compat?: { mode: 'backward' | 'forward' | 'full' | 'none' };
}

/** Where a comment goes in the written contract: a top-level key, or a column by index. */
export type NoteTarget = { readonly key: keyof Draft } | { readonly column: number };

export interface Note {
  readonly target: NoteTarget;
  readonly text: string;
}

export function emptyDraft(): Draft {
  return { owner: {}, produces: {}, schema: { columns: [] } };
}
