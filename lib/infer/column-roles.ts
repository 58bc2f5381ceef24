/**
 * What a column's name (and, for keys, its values) says about its role: an identifier, a load
 * time, an update time or an event time. Names are read word by word, so `vendor_id`,
 * `VendorID` and `vendor-id` agree, and `paid` or `valid` are no ids.
 */

/** Last words that name an identifier: `id`, `*_id`, `*_key`, `*_seq`, `*_no`, `*_number`, `uuid`... */
const ID_WORDS = new Set(['id', 'key', 'pk', 'seq', 'sequence', 'no', 'nr', 'num', 'number', 'uuid', 'guid', 'ulid']);

/** Words of a load (or ingest) time: when the row reached the data, e.g. `ingested_at`, `_etl_loaded_at`, `_sdc_batched_at`. */
const LOAD_WORDS = new Set(['ingested', 'ingestion', 'ingest', 'loaded', 'load', 'etl', 'synced', 'sync', 'extracted', 'emitted', 'batched', 'landed', 'arrived', 'arrival', 'received', 'inserted', 'imported', 'captured', 'processed', 'written']);

/** Words of an update time: when the source last changed the row, e.g. `updated_at`, `last_modified`. */
const UPDATE_WORDS = new Set(['updated', 'update', 'modified', 'changed', 'refreshed', 'mtime']);

/** Values that are identifiers whatever the column is called: UUIDs (any version) and ULIDs. */
const ID_VALUES: readonly { readonly pattern: RegExp; readonly name: string }[] = [
  { pattern: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, name: 'UUID' },
  { pattern: /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/, name: 'ULID' },
];

export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
}

export function isIdName(name: string): boolean {
  return ID_WORDS.has(nameWords(name).at(-1) ?? '');
}

/** The identifier pattern a string value has (`UUID`, `ULID`), if any. */
export function idPatternOf(value: string): string | undefined {
  return ID_VALUES.find((p) => p.pattern.test(value))?.name;
}

/**
 * What a time column records, by its name: `load` (when the data arrived: what freshness is
 * about), `update` (when the source last changed the row), or `event` (when something happened:
 * `pickup_at`, `ordered_at`, `created_at`, `event_time`), the default.
 */
export type TimeRole = 'load' | 'update' | 'event';

export function timeRole(name: string): TimeRole {
  const words = nameWords(name);
  if (words.some((w) => LOAD_WORDS.has(w))) return 'load';
  if (words.some((w) => UPDATE_WORDS.has(w))) return 'update';
  return 'event';
}
